import TesseraViews

/// `/orders`: the status filters; the rows are the page's `rows` region (``OrderRowsModel``).
struct OrderListModel: Sendable {
    struct Filter: Sendable {
        var label: String
        var url: String
        var status: String
        var current: String
    }

    var filters: [Filter]
}

/// The order list's rows, each already rendered by the row view its order needs.
struct OrderRowsModel: Sendable {
    var rows: [HTMLOutput]
    var isEmpty: Bool
    var emptyMessage: String
}
