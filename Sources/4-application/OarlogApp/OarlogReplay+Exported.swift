// The replay of a trace and its reports (OarlogReplay) are part of the application layer's door:
// whoever imports OarlogApp has them, as before they had their own module (the small `oarlog`
// front imports OarlogReplay alone).
@_exported import OarlogReplay
