import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import OarlogTrainingSites
import OarlogCore

/// What `oarlog serve` is told.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The pages (index.html, the live screen, the race list): `Web/` of the project.
    public var webRoot: String
    /// Where Debian installs Leaflet and Chart.js (`libjs-leaflet`, `libjs-chart.js`).
    public var leafletDirectory = "/usr/share/javascript/leaflet"
    public var chartDirectory = "/usr/share/javascript/chart.js"
    /// Where Debian installs the QR code maker the share link draws with (`node-qrcode-generator`).
    public var qrcodeDirectory = "/usr/share/nodejs/qrcode-generator"
    /// The largest request body accepted (a note, a title): larger is refused with 413.
    public var maximumBodyBytes = APIRequest.maximumBodyBytes
    /// The kept sessions the API lists, reads and changes.
    public var sessions: SessionStore
    /// Connections, idle timeout and request heads (docs/API.md, Limits).
    public var limits = FrontDoorLimits()
    /// Names besides the board's own that the `Host` header may give (`--allow-host`).
    public var allowedHosts: [String] = []

    public init(host: String, port: Int, webRoot: String, sessions: SessionStore = .default) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.sessions = sessions
    }

    /// `HOST:PORT` (`127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`), or nil.
    public static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// `Web/` of the project these sources were built from (the first folder above this file
    /// that holds one), else where install.sh puts it.
    public static var defaultWebRoot: String {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let web = folder.appendingPathComponent("Web").path
            if FileManager.default.fileExists(atPath: web + "/index.html") { return web }
            folder = folder.deletingLastPathComponent()
        }
        return "/usr/local/share/oarlog/web"
    }
}

/// The boat's web server: the API (docs/API.md), the live WebSocket, the pages.
public enum WebServer {
    /// Runs until SIGINT or SIGTERM. `ready` is called once the server listens.
    /// `coach`: the fleet as a coach's launch hears it (`--coach`), served at `/api/fleet`.
    public static func run(_ configuration: ServerConfiguration, station: LiveStation, access: ServerAccess, coach: FleetCoach? = nil,
                           ready: @escaping @Sendable (Int) -> Void) async throws {
        let router = makeRouter(configuration, station: station, access: access, coach: coach)
        UploadPump.start(store: configuration.sessions, makeSite: { makeTrainingSite($0, secrets: $1) })  // the upload queue, delivered in the background
        let app = Application(router: router, server: frontDoorServer(router, configuration, access: access),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "oarlog"),
                              onServerRunning: { channel in ready(channel.localAddress?.port ?? configuration.port) })
        try await app.runService()
    }

    static func makeRouter(_ configuration: ServerConfiguration, station: LiveStation, access: ServerAccess, coach: FleetCoach? = nil)
        -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorJSON())
        router.add(middleware: PathGuard())
        router.add(middleware: ShareGate(sessions: configuration.sessions, access: access))
        router.add(middleware: FileMiddleware(configuration.webRoot, searchForIndexHtml: true))
        router.add(middleware: FileMiddleware(configuration.leafletDirectory, urlBasePath: "/vendor/leaflet"))
        router.add(middleware: FileMiddleware(configuration.chartDirectory, urlBasePath: "/vendor/chart.js"))
        router.add(middleware: FileMiddleware(configuration.qrcodeDirectory, urlBasePath: "/vendor/qrcode"))
        // The station's recording is kept out of every change and download (SessionStore.watching).
        let api = APIServices(sessions: configuration.sessions.watching(station), station: station, access: access,
                              maximumBodyBytes: configuration.maximumBodyBytes)
        router.addRoutes(SessionsController(api: api).endpoints)
        router.addRoutes(NotesController(api: api).endpoints)
        router.addRoutes(RecordingController(api: api).endpoints)
        router.addRoutes(LiveWorkoutController(api: api).endpoints)
        router.addRoutes(LiveGhostController(api: api).endpoints)
        router.addRoutes(PairingController(api: api).endpoints)
        router.addRoutes(BestsController(api: api).endpoints)
        router.addRoutes(CompareController(api: api).endpoints)
        router.addRoutes(ImportController(api: api).endpoints)
        router.addRoutes(WorkoutsController(api: api).endpoints)
        router.addRoutes(HeartRateZonesController(api: api).endpoints)
        router.addRoutes(ChallengesController(api: api).endpoints)
        router.addRoutes(CoursesController(api: api).endpoints)
        router.addRoutes(UploadsController(api: api).endpoints)
        router.addRoutes(FleetController(coach: coach, api: api).endpoints)
        router.addRoutes(SharesController(api: api).endpoints)
        router.addRoutes(HeartRateStrapsController(api: api).endpoints)
        router.addRoutes(SharedController(api: api, webRoot: configuration.webRoot).endpoints)
        router.addRoutes(StreamController(api: api, pool: PlaybackPool()).endpoints)
        return router
    }
}
