import Foundation
import TesseraTesting
import Testing

/// A form sent back with errors ties each message to its field, for screen readers: the message
/// has an id, the field points to it with `aria-describedby` and says `aria-invalid="true"`, and
/// the message starts with "Error:", so that it is not told by its colour alone.
@Suite(.serialized) struct FieldErrorTests {
    @Test func eachMessageIsTiedToItsField() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let register = try await browser.submit(from: "/register", to: "/register", form: "name=&email=x&password=short")
            #expect(register.status == 422)
            for field in ["name", "email", "password"] {
                #expect(register.text.contains(#"aria-invalid="true" aria-describedby="\#(field)-error""#), "\(field)")
                #expect(
                    register.text.contains(
                        #"<p class="field-error" id="\#(field)-error" data-field="\#(field)"><span class="error-prefix">Error:</span> "#), "\(field)")
            }

            // A cart line's refused quantity is told beside that line's own field.
            _ = try await browser.submit(from: "/products/3", to: "/cart/items", form: "productID=3&quantity=1")
            let cart = try await browser.submit(from: "/cart", to: "/cart/items/3", form: "quantity=99999")
            #expect(cart.status == 422)
            #expect(cart.text.contains(#"value="99999" aria-invalid="true" aria-describedby="quantity-3-error">"#))
            #expect(cart.text.contains(#"<p class="field-error" id="quantity-3-error" data-field="quantity">"#))
            #expect(cart.text.contains(#"<label for="quantity-3" class="visually-hidden">Quantity of Paper Pendant</label>"#))
        }
    }
}
