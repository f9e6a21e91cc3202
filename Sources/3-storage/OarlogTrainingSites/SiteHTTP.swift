import AsyncHTTPClient
import Foundation
import OarlogUpload

/// One request to a training site.
public struct SiteRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The whole address (`https://intervals.icu/api/v1/athlete/i1/activities?…`).
    public var url: String
    public var headers: [(String, String)]
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A site's answer: status, headers, and the body (at most `SiteHTTP.maximumBodyBytes`).
public struct SiteResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as JSON (nil when it is not).
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }

    /// The site's own words about a refusal: its JSON `message`/`error`/`errors`, or the first line of
    /// its text, at most 200 characters.
    public var siteMessage: String {
        if let object = json as? [String: Any] {
            for key in ["message", "error", "errors", "error_description"] {
                if let text = object[key] as? String, !text.isEmpty { return String(text.prefix(200)) }
                if let value = object[key], !(value is NSNull), let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
                    return String(String(decoding: data, as: UTF8.self).prefix(200))
                }
            }
        }
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return String(line.prefix(200))
    }
}

/// HTTP(S) to the training sites over one AsyncHTTPClient client for the process (the shared
/// client's settings, on its event loops): a connection is given 10 s and is not tried again when
/// refused (an offline boat answers at once and the upload queue backs off), a whole exchange
/// 60 s; the answer's body is read up to 1 MiB.
/// A network failure is `.retry`; the caller reads the status (see `failure(for:site:)`).
public enum SiteHTTP {
    public static let maximumBodyBytes = 1 << 20
    public static let wholeTimeout_s: Int64 = 60

    /// Sends `request`; every failure to get an answer is `.retry` naming the site (never the
    /// request's headers, which hold the secrets).
    public static func send(_ request: SiteRequest, site: String) async throws(UploadFailure) -> SiteResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method == "GET" ? .GET : .POST
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(body) }
        do {
            let response = try await siteClient.execute(outgoing, timeout: .seconds(wholeTimeout_s))
            let body = try await response.body.collect(upTo: maximumBodyBytes)
            return SiteResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                                body: Array(body.readableBytesView))
        } catch {
            throw .retry("\(site) cannot be reached (\(networkReason(error)))", after_s: nil)
        }
    }

    /// What a status other than success means: 429 and 5xx `.retry` (after Retry-After when
    /// given), 401 `.unauthorized`, any other 4xx `.rejected` with the site's message.
    public static func failure(for response: SiteResponse, site: String, unauthorized: String) -> UploadFailure {
        let status = response.status
        if status == 429 {
            return .retry("\(site) is busy (429): try again later", after_s: retryAfter_s(response))
        }
        if status >= 500 {
            return .retry("\(site) is failing (\(status)): try again later", after_s: retryAfter_s(response))
        }
        if status == 401 { return .unauthorized(unauthorized) }
        let message = response.siteMessage
        return .rejected("\(site) refused the upload (\(status))" + (message.isEmpty ? "" : ": \(message)"))
    }

    /// `Retry-After` in seconds (a number; an HTTP date is not read).
    static func retryAfter_s(_ response: SiteResponse) -> Double? {
        guard let text = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), let seconds = Double(text),
              seconds >= 0, seconds.isFinite else { return nil }
        return seconds
    }

    private static func networkReason(_ error: Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer in time"
            case .remoteConnectionClosed: return "the connection was closed"
            default: return "network error"
            }
        }
        if String(describing: type(of: error)).contains("TooManyBytes") { return "its answer is over 1 MiB" }
        return "network error"
    }

    /// `text` with every one of `secrets` (non-empty) replaced by `…`: a site's message may echo
    /// what it was sent.
    public static func scrub(_ text: String, _ secrets: [String?]) -> String {
        var text = text
        for case let secret? in secrets where secret.count >= 4 { text = text.replacingOccurrences(of: secret, with: "…") }
        return text
    }

    /// `s` escaped for a URL's query.
    public static func query(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A base URL without its trailing slashes.
    public static func base(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// The client the sites are reached with (never shut down: it lives as long as the process).
private let siteClient: HTTPClient = {
    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.timeout.connect = .seconds(10)
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

extension UploadFailure {
    /// The same failure with any of `secrets` removed from its message.
    func scrubbed(_ secrets: [String?]) -> UploadFailure {
        switch self {
        case .unauthorized(let m): .unauthorized(SiteHTTP.scrub(m, secrets))
        case .retry(let m, let after): .retry(SiteHTTP.scrub(m, secrets), after_s: after)
        case .rejected(let m): .rejected(SiteHTTP.scrub(m, secrets))
        }
    }
}
