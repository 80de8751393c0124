/// TechEmpower's JSON test's object: `{"message":"Hello, World!"}`.
struct Message: Encodable, Sendable {
    var message: String
}
