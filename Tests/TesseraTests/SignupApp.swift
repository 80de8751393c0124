import Foundation
import Synchronization
import Tessera
import TesseraViews

/// A form flow: show, post, re-render with errors (422) or redirect with a flash.
struct SignupForm: FormModel {
    var name: String
    var age: Int

    init(reading form: inout FormReader) {
        name = form.text("name", maxLength: 40)
        age = form.integer("age", in: 13...120)
    }
}

/// The view model: what the template shows, already formatted.
struct SignupFields: Sendable {
    var name = ""
    var age = ""
    var nameError: String?
    var ageError: String?

    init(_ state: FormState = FormState()) {
        name = state.value("name")
        age = state.value("age")
        nameError = state.error("name")
        ageError = state.error("age")
    }
}

struct SignupPage: Sendable {
    var flash: String?
    var form: SignupFields
}

enum SignupRoutes {
    static let form = Route<NoParameters>("signup.form", .get, "/signup")
    static let submit = Route<NoParameters>("signup.submit", .post, "/signup")
    static let signIn = Route<NoParameters>("signup.signin", .post, "/signin")
    static let whoami = Route<NoParameters>("signup.whoami", .get, "/whoami")
}

/// Stands in for a service: counts accepted sign-ups, so tests can prove a refused post changed nothing.
final class SignupCounter: Sendable {
    let accepted = Mutex(0)
}

struct SignupModule: FeatureModule {
    let counter: SignupCounter

    func register(in app: inout ApplicationBuilder) {
        app.routes.page(SignupRoutes.form) { _, _ in SignupPageController(form: FormState()) }
        app.routes.action(SignupRoutes.submit) { [counter] _, context in
            switch try context.decodeForm(SignupForm.self) {
            case .valid(let form):
                counter.accepted.withLock { $0 += 1 }
                return context.redirect(to: SignupRoutes.form.path, flash: "Welcome, \(form.name)!")
            case .invalid(let state):
                return try await context.render(SignupPageController(form: state))
            }
        }
        app.routes.action(SignupRoutes.signIn) { _, context in
            context.session.rotate()
            context.session["user"] = try context.request.form()["name"]
            return context.redirect(to: SignupRoutes.whoami.path)
        }
        app.routes.action(SignupRoutes.whoami) { _, context in
            .text("\(context.session["user"] ?? "anonymous") \(context.session.id ?? "-")")
        }
    }
}

/// The sign-up page: the form, empty or sent back with its errors (422), and the flash.
struct SignupPageController: PageController {
    let form: FormState

    func load(_ context: RequestContext) async throws -> SignupPage {
        SignupPage(flash: context.takeFlash(), form: SignupFields(form))
    }

    func render(_ page: SignupPage, in context: RequestContext) -> Page {
        Page(title: "Sign up", body: context.render(SignupFormView.self, page), status: form.isValid ? .ok : .unprocessableContent)
    }
}
