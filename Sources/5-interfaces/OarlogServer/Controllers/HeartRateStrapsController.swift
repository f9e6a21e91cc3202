import Foundation
import Hummingbird
import OarlogApp
import OarlogCore

/// `/api/heart-rate/straps`: the crew's heart-rate straps (the strap book, `oarlog hr`). `GET`
/// (open, like every read) lists the assigned straps and those bluetoothd knows:
/// `{"straps": [{"address", "name", "seat", "connected", "bpm"}]}` (`bpm` while a live session
/// reads the strap). With the token: `PUT /api/heart-rate/straps/{seat}` with `{"address":
/// "AA:BB:CC:DD:EE:FF"}` gives the strap to the seat; `DELETE` takes it away (404 when the seat
/// has none). A bad seat or address is 400; a ninth strap 409.
struct HeartRateStrapsController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context
    static let maximumBodyBytes = 1024

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/heart-rate/straps", use: list)
            .put("/api/heart-rate/straps/:seat", use: assign)
            .delete("/api/heart-rate/straps/:seat", use: unassign)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let book = api.sessions.straps
        let straps = try await api.reading { try HeartRateStraps.status(book: book) }
        // Every key, `null` for a missing name, seat or bpm (the phone reads every key).
        var w = JSONWriter()
        w.beginObject()
        w.beginArray(key: "straps")
        for s in straps {
            w.beginObject()
            w.field("address", s.address)
            w.field("bpm", s.bpm)
            w.field("connected", s.connected)
            w.field("name", s.name)
            w.field("seat", s.seat)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return json(w.text)
    }

    @Sendable func assign(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let seat = try self.seat(context)
        let body = try await api.body(of: request, upTo: Self.maximumBodyBytes, tooLarge: "expected {\"address\": \"AA:BB:CC:DD:EE:FF\"}")
        struct Body: Decodable { let address: String }
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw HTTPError(.badRequest, message: "expected {\"address\": \"AA:BB:CC:DD:EE:FF\"}")
        }
        let address: String
        do { address = try StrapBook.checkedAddress(decoded.address) } catch { throw HTTPError(.badRequest, message: "\(error)") }
        let book = api.sessions.straps
        do {
            _ = try await api.writing { try book.assign(seat: seat, address: address) }
        } catch let error as AppError {
            throw HTTPError(.conflict, message: error.description)
        }
        struct Assigned: Encodable { let seat, address: String }
        return try json(Assigned(seat: seat, address: address))
    }

    @Sendable func unassign(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let seat = try self.seat(context)
        let book = api.sessions.straps
        guard let gone = try await api.writing({ try book.unassign(seat) }), gone.seat == seat else {
            throw HTTPError(.notFound, message: "no strap is assigned to \(seat)")
        }
        struct Unassigned: Encodable { let seat, address: String }
        return try json(Unassigned(seat: gone.seat, address: gone.address))
    }

    private func seat(_ context: Context) throws -> String {
        let raw = context.parameters.get("seat")?.removingPercentEncoding ?? ""
        do { return try StrapBook.checkedSeat(raw) } catch { throw HTTPError(.badRequest, message: "\(error)") }
    }
}
