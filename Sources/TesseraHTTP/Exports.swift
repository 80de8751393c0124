// The loops the server runs on, which an app shares with its PostgreSQL connections.
@_exported import TesseraLoop

// The HTTP vocabulary (methods, statuses, fields) is swift-http-types', shared with Hummingbird
// and others; whoever imports the server gets these four types, not the whole module.
@_exported import struct HTTPTypes.HTTPField
@_exported import struct HTTPTypes.HTTPFields
@_exported import struct HTTPTypes.HTTPRequest
@_exported import struct HTTPTypes.HTTPResponse
