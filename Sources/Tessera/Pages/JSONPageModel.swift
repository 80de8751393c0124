/// A page model that a client may also have as JSON (`Accept: application/json`), through a
/// type of its own.
///
/// A page answers HTML alone unless its model opts in here, whatever `Accept` says: a model
/// carries what its views need (an internal id, a cost price, another shopper's data in a staff
/// view), and being `Encodable` for some other reason must not publish it to anyone who sends a
/// header. What goes is ``json``, never the model, so every field sent is one that type names on
/// purpose (decision 0037).
public protocol JSONPageModel {
    /// What a JSON client gets: the fields it names, and nothing else of the model.
    associatedtype JSON: Encodable
    /// The model as a JSON client sees it.
    var json: JSON { get }
}
