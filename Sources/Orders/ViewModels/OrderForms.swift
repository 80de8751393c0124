import Tessera
import TesseraViews

/// The add-to-cart form.
struct AddToCartForm: FormModel {
    var productID: Int
    var quantity: Int

    init(reading form: inout FormReader) {
        productID = form.integer("productID", in: 1...Int(Int32.max), label: "Product")
        quantity = form.integer("quantity", in: 1...10_000, label: Messages.commonQuantity.string(in: form.language))
    }
}

/// A cart line's quantity; 0 removes the line.
struct QuantityForm: FormModel {
    var quantity: Int

    init(reading form: inout FormReader) {
        quantity = form.integer("quantity", in: 0...10_000, label: Messages.commonQuantity.string(in: form.language))
    }
}

/// The checkout form: the number its page gave the order it places.
struct CheckoutForm: FormModel {
    var checkoutNumber: Int

    init(reading form: inout FormReader) {
        checkoutNumber = form.integer("checkoutNumber", in: 1...Int(Int32.max), label: "Checkout number")
    }
}

/// The pay button's form: its idempotency key makes a second submission harmless.
struct PayForm: FormModel {
    var idempotencyKey: String

    init(reading form: inout FormReader) {
        idempotencyKey = form.text("idempotencyKey", maxLength: 64, label: "Payment key")
    }
}

struct CancelOrderForm: FormModel {
    var reason: String

    init(reading form: inout FormReader) {
        reason = form.text("reason", required: false, maxLength: 200, label: Messages.formReason.string(in: form.language))
    }
}

struct ReviewForm: FormModel {
    var rating: Int
    var text: String

    init(reading form: inout FormReader) {
        rating = form.integer("rating", in: 1...5, label: Messages.formRating.string(in: form.language))
        text = form.text("text", maxLength: 2000, label: Messages.formReview.string(in: form.language), multiline: true)
    }
}
