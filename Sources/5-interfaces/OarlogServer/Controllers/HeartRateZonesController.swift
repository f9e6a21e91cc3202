import Foundation
import Hummingbird
import OarlogApp

/// `/api/heart-rate/zones`: each rower's heart-rate zones (`HeartRateZones`, `hr-zones.json`
/// beside the sessions), by the strap's or seat's name. `GET` lists them (open, like every read):
/// `{"zones": [{"sensor", "max_bpm", "rest_bpm", "zone_floors_bpm"}], "zone_floors_percent"}`.
/// With the token: `PUT /api/heart-rate/zones/{sensor}` with `{"max_bpm": 190, "rest_bpm": 55}`
/// sets one (201, 200 when it replaced one; 400 with why for a maximum outside 100–230 bpm, a
/// resting rate not below it, a bad name or body; 409 when 64 rowers have zones); `DELETE` the
/// same path removes one (404 when there is none). The live screen's colours follow at once.
struct HeartRateZonesController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/heart-rate/zones", use: list)
            .put("/api/heart-rate/zones/:sensor", use: set)
            .delete("/api/heart-rate/zones/:sensor", use: remove)
    }

    var zones: HeartRateZones { HeartRateZones(sessions: api.sessions) }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let zones = self.zones
        return json(try await api.reading { try Self.mapped { HeartRateZones.json(try zones.list()) } })
    }

    @Sendable func set(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let sensor = try Self.sensor(context)
        let bytes = try await api.body(of: request, upTo: HeartRateZones.maximumRequestBytes,
                                       tooLarge: "a body of over \(HeartRateZones.maximumRequestBytes) bytes")
        let zones = self.zones
        let (setting, replaced) = try await api.writing { try Self.mapped { try zones.set(sensor: sensor, requestBody: bytes) } }
        api.station.reloadHeartRateZones()
        return json(setting.json, status: replaced ? .ok : .created)
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let sensor = try Self.sensor(context)
        let zones = self.zones
        try await api.writing { try Self.mapped { try zones.remove(sensor: sensor) } }
        api.station.reloadHeartRateZones()
        return try json(Answers.Removed(removed: sensor))
    }

    private static func sensor(_ context: Context) throws -> String {
        guard let sensor = context.parameters.get("sensor")?.removingPercentEncoding, !sensor.isEmpty else {
            throw HTTPError(.notFound, message: "no such sensor")
        }
        return sensor
    }

    /// The zones' errors as statuses: 404, 400, 409, 500.
    private static func mapped<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch let error as HeartRateZonesError {
            switch error {
            case .notFound(let why): throw HTTPError(.notFound, message: why)
            case .badRequest(let why): throw HTTPError(.badRequest, message: why)
            case .full(let why): throw HTTPError(.conflict, message: why)
            case .unreadable(let why): throw HTTPError(.internalServerError, message: why)
            }
        }
    }
}
