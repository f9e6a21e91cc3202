import OarlogCore
import OarlogFleet

/// How attempts and answers change a challenge, without I/O: an attempt that counts and meets
/// the target is linked (the earliest, never one rejected), the others are listed as tried; an
/// acceptance closes the challenge; a rejection moves the attempt to `rejected` and leaves the
/// challenge open for the next attempt that meets it (a rower who was told "that one doesn't
/// count: you cut the corner" goes out again), until its deadline.
enum ChallengeLinking {
    /// The course's attempts (from the leaderboard) as the challenge keeps them.
    static func attempt(_ a: CourseAttempt, for c: Challenge) -> ChallengeAttempt {
        var out = ChallengeAttempt(session: a.session, boat: a.boat, startUTC: a.startUTC, start: a.start, time: a.time, handicapped: nil)
        out.handicapped = c.boatClass(of: out)?.handicapped(a.time)
        return out
    }

    /// Links `attempts` (any course's) to `c`.
    static func link(_ attempts: [CourseAttempt], to c: inout Challenge) {
        let counted = attempts.compactMap { a -> ChallengeAttempt? in
            let mine = attempt(a, for: c)
            return c.counts(mine, course: a.course) ? mine : nil
        }
        .sorted { ($0.date ?? 0) < ($1.date ?? 0) }
        take(counted, into: &c)
    }

    /// Takes attempts that count for `c` (its own sessions', or a boat's report through the
    /// fleet): the earliest that meets it and was not rejected is linked when none is; the
    /// others are added to `tried`.
    static func take(_ counted: [ChallengeAttempt], into c: inout Challenge) {
        if c.attempt == nil, let first = counted.first(where: { c.meets($0) && !c.wasRejected($0) }) {
            c.attempt = first
            c.tried.removeAll { $0.isSame(as: first) }
        } else if let linked = c.attempt, c.acceptance == nil,
                  let earlier = counted.first(where: { c.meets($0) && !c.wasRejected($0) && ($0.date ?? 0) < (linked.date ?? 0) }) {
            // An earlier attempt met it (a boat's report that came late): it is the one that counts.
            c.tried.append(linked)
            c.attempt = earlier
            c.tried.removeAll { $0.isSame(as: earlier) }
        }
        for a in counted where !(c.attempt?.isSame(as: a) ?? false) && !c.wasRejected(a) && !c.tried.contains(where: { $0.isSame(as: a) }) {
            c.tried.append(a)
        }
        c.tried.sort { ($0.date ?? 0) < ($1.date ?? 0) }
        if c.tried.count > 200 { c.tried.removeFirst(c.tried.count - 200) }
    }

    /// The challenger's answer: an acceptance of the linked attempt closes the challenge; a
    /// rejection moves the attempt it answers to `rejected`. An answer already applied, or to an
    /// attempt this book does not know, changes what it can.
    static func apply(_ answer: ChallengeAnswer, to c: inout Challenge) {
        if answer.accepted {
            if let linked = c.attempt, answer.answers(linked) {
                c.acceptance = answer
            } else if let tried = c.tried.firstIndex(where: { answer.answers($0) }), c.acceptance == nil {
                // The challenger accepted another attempt than the one linked here.
                if let linked = c.attempt { c.tried.append(linked) }
                c.attempt = c.tried.remove(at: tried)
                c.acceptance = answer
            }
            return
        }
        guard !c.rejected.contains(where: { $0.answer.answers(ChallengeAttempt(session: answer.session, boat: "", startUTC: nil,
                                                                                 start: answer.start, time: 0, handicapped: nil)) })
        else { return }
        if let linked = c.attempt, answer.answers(linked) {
            c.rejected.append(Challenge.Rejection(attempt: linked, answer: answer))
            c.attempt = nil
            c.acceptance = nil
            // The next attempt that met it (already rowed) is linked now.
            let waiting = c.tried
            c.tried = []
            take(waiting, into: &c)
        } else {
            let known = c.tried.first(where: { answer.answers($0) })
                ?? ChallengeAttempt(session: answer.session, boat: c.boat ?? "", startUTC: nil, start: answer.start, time: 0, handicapped: nil)
            c.tried.removeAll { answer.answers($0) }
            c.rejected.append(Challenge.Rejection(attempt: known, answer: answer))
        }
    }
}
