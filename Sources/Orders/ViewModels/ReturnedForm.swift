import Tessera

/// A form of the order page sent back with errors: which one, and what was typed.
enum ReturnedForm: Sendable {
    case review(FormState)
    case cancellation(FormState)
}
