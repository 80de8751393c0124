public import Tessera
public import TesseraViews

/// The status filter links above an order list (`?status=`): the shopper's `/orders` and the
/// back office's `/admin/orders` show the same ones.
public struct OrderStatusFilter: Sendable {
    /// The link's words, in the page's language: "All", "Paid", …
    public var label: LocalizedText
    /// The list's URL with this filter.
    public var url: String
    /// The status's name in the URL, empty for all; scrapers read it from `data-status-filter`.
    public var status: String
    /// `page` on the filter in use, for `aria-current`; `false` on the others.
    public var current: String

    /// "All", then one link per status, for the list at `path`, marking `current`.
    public static func links(for path: String, current: OrderStatus?) -> [OrderStatusFilter] {
        [OrderStatusFilter(label: Messages.listAll.text(), url: path, status: "all", current: current == nil ? "page" : "false")]
            + OrderStatus.allCases.map { status in
                OrderStatusFilter(
                    label: status.localizedLabel, url: path + "?status=" + status.rawValue, status: status.rawValue,
                    current: current == status ? "page" : "false")
            }
    }
}

extension OrderStatus {
    /// A list's `?status=` filter: absent or empty for every order, a 400 for an unknown one.
    public static func filter(in request: Request) throws(HTTPError) -> OrderStatus? {
        guard let raw = request.query["status"], !raw.isEmpty else { return nil }
        guard let parsed = OrderStatus(rawValue: raw) else {
            throw HTTPError(.badRequest, Messages.errorStatusFilter.text(["statuses": OrderStatus.allCases.map(\.rawValue).joined(separator: ", ")]))
        }
        return parsed
    }
}
