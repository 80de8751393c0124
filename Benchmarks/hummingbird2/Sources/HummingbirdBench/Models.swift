import Hummingbird
import Mustache

/// A row of `world`, encoded per request by the context's JSONEncoder.
struct World: ResponseEncodable, Sendable {
    var id: Int32
    var randomNumber: Int32
}

/// `/json`'s answer, encoded per request.
struct Message: ResponseEncodable, Sendable {
    var message: String
}

/// A row of `fortune`.
struct Fortune: Sendable {
    var id: Int32
    var message: String
}

// As in the entry: answer the template's keys directly rather than through Mirror.
extension Fortune: MustacheParent {
    func child(named: String) -> Any? {
        switch named {
        case "id": return self.id
        case "message": return self.message
        default: return nil
        }
    }
}
