import Orders
import Tessera

/// The member of staff a back-office request is by, as the order history names them; attached
/// by ``StaffOnlyMiddleware``.
enum StaffMember: RequestValueKey {
    typealias Value = OrderChangeAuthor
}

extension RequestContext {
    /// The member of staff. A route registered outside the staff-only group has none and answers
    /// the ordinary 404: a misplaced route fails closed, never open.
    var staffMember: OrderChangeAuthor {
        get throws {
            guard let staff = self[StaffMember.self] else { throw HTTPError.nothingHere }
            return staff
        }
    }
}
