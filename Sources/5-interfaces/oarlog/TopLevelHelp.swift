#if canImport(Glibc)
import Glibc
#endif

/// `oarlog --help`: the full program's top-level help as swift-argument-parser renders it at 80
/// columns (`oarlog-full --help | cat`), kept here so the help costs no more than this program.
/// `FrontTests` compares the two: when a command is added or its abstract changes, copy the
/// full program's output here again. At any other width (a wider terminal, `COLUMNS`) the full
/// program renders it.
enum TopLevelHelp {
    /// True when the help would be rendered 80 columns wide, as swift-argument-parser decides it:
    /// `COLUMNS` if it is a number, else the terminal's width, else 80.
    static var isEightyColumns: Bool {
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) { return columns == 80 }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return size.ws_col == 80 }
        return true
    }

    static let text = #"""
OVERVIEW: A rowing instrument: stroke rate, split, distance and strokes from an
accelerometer and GPS.

Replay a recorded trace (native CSV, NK SpeedCoach, NK LiNK Logbook, Talos,
Quiske) through the same pipeline that runs in the boat, or simulate a session
with known ground truth.

USAGE: oarlog <subcommand>

OPTIONS:
  -h, --help              Show help information.

SUBCOMMANDS:
  replay                  Replay a recorded sensor trace through the pipeline
                          and print a coxswain's summary.
  record                  Record a session live from the accelerometer and GPS,
                          with the coxswain's display.
  sessions                List the recorded sessions (newest first), search and
                          filter them.
  show                    Show a recorded session's summary (and its strokes
                          and notes).
  play                    Play a recorded session back on the live display, as
                          it was in the boat (or faster).
  note                    Add a note to a recorded session, at a time of the
                          session.
  delete                  Delete a recorded session.
  simulate                Simulate a rowing session: a native CSV trace and a
                          ground-truth file beside it.
  export                  Export a session as GPX, TCX, FIT, a per-stroke CSV,
                          GeoJSON or a one-file HTML report.
  course                  Time a course over a trace: per-leg time, split and
                          stroke rate from gate crossings.
  fences                  Make and check GeoJSON geofence and course files (see
                          docs/FENCES.md).
  gps                     Watch the GPS through gpsd: fix mode, satellites,
                          position, speed and the split it implies.
  accel                   Check the accelerometer: rate achieved, gravity, the
                          surge axis Oarlog picks, a live surge level.
  devices                 List IIO devices (accelerometers), gpsd's GPS
                          receivers and the heart-rate straps, with what each
                          can do.
  recover                 Check a session file and recover everything intact
                          from a damaged one.
  evaluate                Check Oarlog's accuracy on real recordings and
                          simulated sessions; print a table.
  serve                   Serve the web app: the live race screen and the race
                          list for the cox's phone.
  bests                   Personal bests: the fastest 500 m to 6,000 m and the
                          most distance in 1, 20 and 30 minutes.
  compare                 Two outings or pieces side by side per 500 m (or per
                          course leg): time, split, rate, strokes and the gap.
  archive                 Keep every boat's sessions from the fleet's MQTT
                          stream as session files (a club's server).
  fit                     Print each message of a FIT file as one JSON line.
  import                  Import trace files, folders and zips into the
                          archive, each as a session (a file imported before is
                          skipped).
  workouts                Keep workout plans by name: add, list, show, remove
                          (see docs/WORKOUTS.md).
  courses                 Keep the club's measured courses: add, list, show,
                          delete (see docs/COURSES.md).
  attempts                Every complete passage of the kept courses, fastest
                          first (see docs/COURSES.md).
  challenges              Challenges on the kept courses: list, set, accept,
                          reject (see docs/CHALLENGES.md).
  share                   Make a link that opens one session read-only (revoke
                          it with oarlog unshare).
  shares                  List the share links (oarlog share).
  unshare                 Revoke a share link, or every link of a session.
  accounts                Keep the accounts sessions are uploaded to:
                          Intervals.icu, Strava, the Concept2 logbook.
  upload                  Upload a session to Intervals.icu, Strava or the
                          Concept2 logbook (queued while offline).
  uploads                 List the uploads: queued, sent, done, duplicate or
                          failed, with the remote id and the last error.
  hr                      Heart-rate straps: scan for them, give each to a seat
                          (record and serve read them).

  See 'oarlog help <subcommand>' for detailed help.

"""#
}
