import OarlogCore

extension WorkoutLibrary {
    /// Saves the plan of a `POST /api/workouts` body: `{"name": …, "spec": "3x4:00/2:00r"}` or
    /// `{"name": …, "plan": {the JSON form}}`, with `"replace": true` to replace a plan of that
    /// name (else a duplicate is refused). Errors name the key: `spec: rest needs a trailing r at
    /// column 11`, `plan.steps[2].time_s: …`.
    @discardableResult
    public func add(requestBody bytes: [UInt8]) throws(WorkoutLibraryError) -> (saved: SavedWorkout, replaced: Bool) {
        guard bytes.count <= Self.maximumRequestBytes else { throw .badPlan("a body of over \(Self.maximumRequestBytes / 1024) KiB") }
        let fields: [String: JSONValue]
        do {
            fields = try WorkoutPlanJSON.object(try JSONValue.read(bytes), "", allowed: ["name", "spec", "plan", "replace"],
                                                hint: "the body takes name, spec or plan, and replace")
        } catch {
            throw .badPlan(error.description)
        }
        guard let nameValue = fields["name"] else { throw .badPlan("name: the plan's name is needed") }
        guard case .string(let name) = nameValue else { throw .badPlan("name: a string, not \(nameValue.kindName)") }
        var replacing = false
        if let replace = fields["replace"] {
            guard case .bool(let flag) = replace else { throw .badPlan("replace: true or false, not \(replace.kindName)") }
            replacing = flag
        }
        if let problem = Self.nameProblem(name) { throw .badPlan("name: \(problem)") }
        let saved: SavedWorkout
        switch (fields["spec"], fields["plan"]) {
        case (let spec?, nil):
            guard case .string(let text) = spec else { throw .badPlan("spec: a string, not \(spec.kindName)") }
            saved = try Self.saved(name: name, .spec(text))
        case (nil, let plan?):
            saved = try Self.saved(name: name, json: plan, path: "plan")
        case (nil, nil): throw .badPlan("the plan is needed: spec (3x4:00/2:00r) or plan (the JSON form)")
        case (_?, _?): throw .badPlan("give spec or plan, not both")
        }
        return try store(saved, replacing: replacing)
    }
}
