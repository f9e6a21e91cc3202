import OarlogCore
import OarlogDSP
import OarlogSimulator

/// The simulator's outing through a `SurgeStrokeDetector` alone (mounting → surge → strokes):
/// the truth and the strokes the detector completed (each once, `.complete`).
func detectSimulated(_ configuration: SimulationConfiguration) throws -> (truth: GroundTruth, strokes: [StrokeEvent]) {
    var simulator = try BoatSimulator(configuration: configuration)
    var stage = SurgeStrokeDetector()
    var strokes: [StrokeEvent] = []
    let truth = try simulator.run { record in
        if case .accel(let s) = record { stage.process(s) { if $0.stage == .complete { strokes.append($0) } } }
    }
    stage.finish { if $0.stage == .complete { strokes.append($0) } }
    return (truth, strokes)
}
