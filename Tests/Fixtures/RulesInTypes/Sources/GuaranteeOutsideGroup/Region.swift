import Tessera
import TesseraViews

struct SignedIn: RouteGuarantee {
    func check(_ context: RequestContext, returningTo page: String) throws -> String {
        guard let name = context.session["user"] else { throw Redirect(to: "/login") }
        return name
    }
}
let orders = Route<NoParameters>("orders", .get, "/orders")
func register(_ app: inout ApplicationBuilder) {
    app.routes.action(orders) { _, _, name in .text("orders of \(name)") }
}
