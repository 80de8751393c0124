/// A value in a template: a property path (`order.total.formatted`) with filters applied
/// (`| date: "yyyy"`). Paths and literals only: templates hold no arbitrary Swift.
struct Expression: Equatable {
    enum Atom: Equatable {
        case path([String])
        case string(String)
        case integer(Int)
        /// `route CatalogRoutes.product(product.id)`: the path of a typed route. The Swift compiler
        /// checks the route's name and its parameters, at the template's line.
        indirect case route(name: String, arguments: [Atom])
        /// `t "cart.items" count: cart.itemCount`: a message of the module's catalog, in the
        /// rendering's language. The compiler checks that every language has the key and that
        /// the placeholders are given, at the template's line.
        indirect case message(key: String, arguments: [MessageArgument])
    }

    /// `name: value` after a message's key.
    struct MessageArgument: Equatable {
        var name: String
        var value: Atom
    }

    struct Filter: Equatable {
        var name: String
        var arguments: [Atom]
    }

    var base: Atom
    var filters: [Filter]

    /// Every path's first name, to know whether `loop` is used, say.
    var rootNames: [String] {
        ([base] + filters.flatMap(\.arguments)).flatMap(\.rootNames)
    }
}

extension Expression.Atom {
    /// The first name of each path in this atom.
    var rootNames: [String] {
        switch self {
        case .path(let names): names.first.map { [$0] } ?? []
        case .string, .integer: []
        case .route(_, let arguments): arguments.flatMap(\.rootNames)
        case .message(_, let arguments): arguments.flatMap(\.value.rootNames)
        }
    }
}

/// One condition of an `if`.
enum Condition: Equatable {
    case bool(Expression)
    case not(Expression)
    case unwrap(name: String, Expression)
}

/// The parsed template.
indirect enum Node: Equatable {
    case text(String, SourceLocation)
    case output(Expression, SourceLocation)
    case conditional(branches: [(Condition, [Node], SourceLocation)], otherwise: [Node]?, SourceLocation)
    case loop(variable: String, sequence: Expression, body: [Node], SourceLocation)
    case render(view: String, model: Expression, SourceLocation)
    case block(name: String, body: [Node], SourceLocation)
    /// `{% region "name" %}`, or `{% region "name" optional %}` for a slot a page may leave empty.
    case region(name: String, isOptional: Bool, SourceLocation)

    static func == (lhs: Node, rhs: Node) -> Bool {
        String(describing: lhs) == String(describing: rhs)
    }
}

/// What a template is, from its declarations.
struct TemplateHeader {
    var modelName = "model"
    var modelType: String?
    var modelLocation = SourceLocation(line: 1, column: 1)
    var isPublic = false
    var imports: [String] = []
    /// `{% extends Layout(expression) %}`
    var layout: (type: String, model: Expression, location: SourceLocation)?
}
