import OarlogGPS
import OarlogIIO
import OarlogPipeline

// The device readers run their own threads; the recorder fans them in with `LiveSources`.
extension GPSDSource: LiveRecordSource {}
extension IIOAccelerometerSource: LiveRecordSource {}
