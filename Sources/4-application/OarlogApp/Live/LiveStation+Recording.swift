import Foundation
import OarlogCore
import OarlogLive
import OarlogPipeline
import OarlogSession

/// Start and Stop: a session recorded from the station's stream through a pipeline of its own
/// (its figures count from Go), with the crash-safe writer of `oarlog record`; the phone's notes.
extension LiveStation {
    public enum RecordingError: Error, Equatable, CustomStringConvertible {
        case alreadyRecording(id: String)
        case notRecording
        case sourceEnded
        public var description: String {
            switch self {
            case .alreadyRecording(let id): return "already recording session \(id)"
            case .notRecording: return "not recording"
            case .sourceEnded: return "the source has ended: nothing to record"
            }
        }
    }

    /// Starts recording a session now (session time 0 = the source's newest record). Returns its id.
    public func startRecording(title: String?) throws -> String {
        if let id = state.withLock({ $0.recording?.id }) { throw RecordingError.alreadyRecording(id: id) }
        if status.ended { throw RecordingError.sourceEnded }
        // Live: now on the sensors' clock; a replay: its newest record.
        let (start, startUTC) = state.withLock { s in
            (s.clock.map { $0.sessionTime(ofMonotonic: MonotonicClock().now()) } ?? (s.latestTime.isFinite ? s.latestTime : 0), s.startUTC)
        }
        var settings = self.settings.sessionSettings
        if case .replay(let path, _) = source { settings.append(.init("replayed_from", path)) }
        if let fencesPath { settings.append(.init("fences", fencesPath)) }
        let devices: [String]
        switch source {
        case .replay(let path, let speed): devices = ["replay of \(path) at \(speed)x (oarlog serve)"]
        case .live: devices = ["live (oarlog serve)"]
        }
        let utc = startUTC + start
        let fences = try RowingPipeline.loadFences(fencesPath)
        var metadata = SessionMetadata(title: title ?? "", startUTC: utc, monotonicOrigin: start, devices: devices,
                                       softwareVersion: SessionSaving.softwareVersion, settings: settings)
        metadata.fencesGeoJSON = fences?.sourceText
        let writer: SessionWriter
        do {
            writer = try SessionWriter.create(in: directory, metadata: metadata, options: SessionWriter.Options(durability: .syncEveryChunk))
        } catch {
            throw AppError("cannot record: \(error)")
        }
        let id = SessionText.id(of: writer.path)
        let recording = Recording(id: id, title: title ?? "", start: start, path: writer.path)
        _ = recording.queue.push(LiveRecording.startRecord(utc))
        let pipeline = PipelineHolder(try RowingPipeline.make(settings: self.settings, sinks: [writer, RecordingSink(station: self)],
                                                              fences: fences, workout: trackerForRecording(),
                                                              ghost: ghostForRecording(), live: true))
        let thread = Thread { [self] in
            var source = recording.queue
            do { _ = try pipeline.pipeline.run(&source) } catch { log("recording \(id) stopped: \(error)") }
            recording.done.signal()
        }
        thread.name = "oarlog-recording"
        state.withLock { s in
            s.recording = recording
            s.status.recordingID = id
            s.status.figures = nil
            s.status.distancePerStroke = nil
            s.status.lastNote = nil
        }
        thread.start()
        broadcast(LiveMessage.session(event: "started", id: id, title: recording.title))
        updateStatus(send: true) { _ in }
        log("recording session \(id) (\(writer.path))")
        return id
    }

    /// Stops the recording: its session is closed; returns its id.
    @discardableResult
    public func stopRecording() throws -> String {
        guard let recording = state.withLock({ $0.recording }) else { throw RecordingError.notRecording }
        recording.queue.close()
        recording.done.wait()
        state.withLock { s in
            s.recording = nil
            s.status.recordingID = nil
            s.workoutStatus = nil  // a phone that joins now sees the plan, not the last piece's figures
            s.ghost.status = nil
        }
        // The session closed is searched for the club's courses: its attempts are on the
        // leaderboard at once (a failure loses nothing: the next question searches it again).
        for attempt in (try? SessionStore(directory: directory).searchCourses(inSession: recording.id)) ?? [] {
            log("attempt of \(attempt.course): \(RowingFormat.duration(attempt.time))")
        }
        let summary = (try? StoredSessionReport(try SessionReader(path: recording.path), includeStrokes: false).json(fileNamesOnly: true))
        broadcast(LiveMessage.session(event: "stopped", id: recording.id, title: recording.title, summary: summary))
        updateStatus(send: true) { _ in }
        log("saved session \(recording.id)")
        // Sent to the accounts marked --auto (queued first: the boat may be offline).
        UploadPump.sessionSaved(recording.id, store: SessionStore(directory: directory))
        return recording.id
    }

    /// The session being recorded, if any.
    public var recordingID: String? { state.withLock { $0.recording?.id } }

    /// A note typed on the phone, stamped with the session time now, into the session being recorded.
    public func addNote(_ text: String) throws -> Note {
        guard let (recording, now) = state.withLock({ s in s.recording.map { ($0, s.latestTime) } }) else {
            throw RecordingError.notRecording
        }
        let clock = state.withLock { $0.clock }
        let time = clock.map { $0.sessionTime(ofMonotonic: MonotonicClock().now()) } ?? now
        let note = Note(time: max(0, time - recording.start), text: text)
        _ = recording.queue.push(.note(note))
        return note
    }
}
