import Foundation
import Orders
import Tessera

/// Ship: the carrier's tracking number.
struct ShipForm: FormModel {
    var trackingNumber: TrackingNumber?

    init(reading form: inout FormReader) {
        let text = form.text("trackingNumber", maxLength: 34, label: "Tracking number")
        trackingNumber = TrackingNumber(text)
        if !text.isEmpty && trackingNumber == nil {
            form.fail("trackingNumber", "Enter the carrier's tracking number: 6 to 34 letters, digits or dashes.")
        }
    }
}

/// Cancel, by staff: the reason is required, since the shopper will read it.
struct StaffCancelForm: FormModel {
    var reason: String

    init(reading form: inout FormReader) {
        reason = form.text("reason", maxLength: 200, label: "Reason")
    }
}

/// A product's stock and price; the price as the shop shows it (`12.50`).
struct ProductAdjustmentForm: FormModel {
    var stock: Int
    /// The stock the page showed: the change applies only if it is still so.
    var expectedStock: Int
    var priceMinor: Int
    /// The page of the products list to come back to.
    var page: Int

    init(reading form: inout FormReader) {
        stock = form.integer("stock", in: 0...1_000_000, label: "Stock")
        expectedStock = form.integer("expectedStock", in: 0...Int(Int32.max), label: "Stock shown")
        let price = form.text("price", maxLength: 12, label: "Price")
        priceMinor = Self.minorUnits(price) ?? 0
        if !price.isEmpty {
            form.check((1...10_000_000).contains(priceMinor), "price", "Enter a price from 0.01 to 100000.00, such as 12.50.")
        }
        // The list's page to come back to: it never fails the form; anything else is the first.
        page = form.data["page"].flatMap { Int($0) }.flatMap { (1...1_000_000).contains($0) ? $0 : nil } ?? 1
    }

    /// `12.5` → 1250; `nil` for anything but digits with at most two decimals.
    static func minorUnits(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, (1...6).contains(whole.count), whole.allSatisfy({ $0.isASCII && $0.isNumber }),
            let units = Int(whole)
        else {
            return nil
        }
        guard parts.count == 2 else { return units * 100 }
        let cents = parts[1]
        guard (1...2).contains(cents.count), cents.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(cents) else { return nil }
        return units * 100 + (cents.count == 1 ? value * 10 : value)
    }
}

/// Give an account staff rights: its e-mail.
struct GrantStaffForm: FormModel {
    var email: String

    init(reading form: inout FormReader) {
        email = form.email("email", label: "E-mail")
    }
}

/// Send a dead letter again: the address, as registration checks it.
struct ResendMailForm: FormModel {
    var email: String

    init(reading form: inout FormReader) {
        email = form.email("email", label: "Address")
    }
}
