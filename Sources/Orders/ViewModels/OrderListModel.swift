import TesseraViews

/// `/orders`: the status filters and the rows, each already rendered by the row view its order needs.
struct OrderListModel: Sendable {
    struct Filter: Sendable {
        var label: String
        var url: String
        var status: String
        var current: String
    }

    var filters: [Filter]
    var rows: [HTMLOutput]
    var isEmpty: Bool
    var emptyMessage: String
}
