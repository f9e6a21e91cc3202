import Foundation
import OarlogCore

/// `PUT /api/live/workout`: the plan the next recording rows — `{"spec": "3x4:00/2:00r"}` (the
/// whiteboard form, `WorkoutSpec`), `{"name": "Tuesday pyramid"}` (a saved plan) or
/// `{"plan": null}` (none) — and `"starts_at_go": true` when the first piece starts at the
/// countdown's go rather than at the first catch (default false). Exactly one of the three.
public struct WorkoutChoiceRequest: Equatable, Sendable {
    public enum Choice: Equatable, Sendable {
        /// A plan as written: `WorkoutSpec.parse` reads it (its errors name the column).
        case spec(String)
        /// A saved plan, by its name.
        case name(String)
        /// No plan.
        case none
    }

    /// Longest saved plan's name (characters).
    public static let maximumNameCharacters = 100

    public let choice: Choice
    public let startsAtGo: Bool

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"spec\": \"3x4:00/2:00r\"}, {\"name\": \"pyramid\"} or {\"plan\": null}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        let given = ["spec", "name", "plan"].filter { object[$0] != nil }
        guard given.count == 1 else { throw .malformed("expected one of \(example), with \"starts_at_go\": true or false") }
        switch given[0] {
        case "spec":
            guard let spec = object["spec"] as? String, case let trimmed = spec.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else {
                throw .malformed("spec must be a plan as rowers write it, e.g. \"3x4:00/2:00r\"")
            }
            choice = .spec(trimmed)
        case "name":
            guard let raw = object["name"] as? String, case let name = StoredText.cleaned(raw), !name.isEmpty,
                  name.count <= Self.maximumNameCharacters else {
                throw .malformed("name must be a saved plan's name of 1 to \(Self.maximumNameCharacters) characters")
            }
            choice = .name(name)
        default:
            guard object["plan"] is NSNull else { throw .malformed("plan takes only null (no plan); give a plan as spec or name") }
            choice = .none
        }
        switch object["starts_at_go"] {
        case nil, is NSNull: startsAtGo = false
        case let value?:
            guard let flag = APIRequest.boolean(value) else { throw .malformed("starts_at_go must be true or false") }
            startsAtGo = flag
        }
    }
}

/// `POST /api/live/workout/offer/{id}`: the cox's answer to a coach's plan, `{"accept": true}`
/// or `{"accept": false}`.
public struct WorkoutAnswerRequest: Equatable, Sendable {
    public let accept: Bool

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"accept\": true}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        guard let value = object["accept"], let flag = APIRequest.boolean(value) else {
            throw .malformed("expected \(example) or {\"accept\": false}")
        }
        accept = flag
    }
}
