// The HTTP vocabulary (methods, statuses, field names) is swift-http-types', shared with
// Hummingbird and others; whoever imports the server gets it too.
@_exported import HTTPTypes
