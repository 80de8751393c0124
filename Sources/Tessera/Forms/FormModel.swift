import Foundation
public import TesseraViews

/// A form's typed model, decoded and validated from the submitted fields: the V→VM→C flow of
/// seed 004. The controller receives either the model, valid, or the submitted values with a
/// message per field, to render the same view again.
public protocol FormModel: Sendable {
    /// Reads each field through `form`, which records a message for every field that is wrong.
    init(reading form: inout FormReader)
}

/// Reads fields from a submitted form and collects what is wrong with them.
public struct FormReader: Sendable {
    /// The submitted form, for what the typed readers do not cover (a checkbox, an upload).
    public let data: FormData
    /// The message for each field that is wrong, by field name; empty when all is well.
    public private(set) var errors: [String: String] = [:]
    /// The language of the messages, the request's: a form model can give its labels in it too
    /// (`label: Messages.password.string(in: form.language)`).
    public let language: Language

    /// A reader for `data`, with no messages yet; ``RequestContext/decodeForm(_:)`` makes one for
    /// each submission, in the request's language.
    public init(_ data: FormData, language: Language = .english) {
        self.data = data
        self.language = language
    }

    private func text(_ message: LocalizedMessage, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable>) -> String {
        message.string(in: language, arguments)
    }

    /// A text field, trimmed, without control characters: a one-line field (a name, a title)
    /// keeps none, so a tab or a line break typed or pasted into it cannot reach a header, a
    /// log line or a CSV; a `multiline` one keeps its line breaks (as `\n`) and tabs. Empty is an
    /// error when `required`.
    public mutating func text(_ name: String, required: Bool = true, maxLength: Int = 500, label: String? = nil, multiline: Bool = false) -> String {
        let value = ControlCharacters.removed(from: data[name] ?? "", keepingLineBreaks: multiline).trimmingCharacters(in: .whitespacesAndNewlines)
        let label = label ?? name.capitalized
        if required && value.isEmpty {
            fail(name, text(Messages.formRequired, ["label": label]))
        } else if value.count > maxLength {
            fail(name, text(Messages.formTooLong, ["label": label, "max": LocalizedNumber(maxLength)]))
        }
        return value
    }

    /// A password or another secret: trimmed as ``text(_:required:maxLength:label:multiline:)``
    /// trims, and otherwise exactly as sent, since a secret an account was made with must match
    /// to the byte. Empty is an error.
    public mutating func secret(_ name: String, maxLength: Int = 200, label: String? = nil) -> String {
        let value = (data[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let label = label ?? name.capitalized
        if value.isEmpty {
            fail(name, text(Messages.formRequired, ["label": label]))
        } else if value.count > maxLength {
            fail(name, text(Messages.formTooLong, ["label": label, "max": LocalizedNumber(maxLength)]))
        }
        return value
    }

    /// A whole number within `range`; anything else (empty, `abc`, `1.5`) is an error.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>, label: String? = nil) -> Int {
        let raw = (data[name] ?? "").trimmingCharacters(in: .whitespaces)
        let label = label ?? name.capitalized
        guard let value = Int(raw) else {
            fail(name, text(raw.isEmpty ? Messages.formRequired : Messages.formWholeNumber, ["label": label]))
            return range.lowerBound
        }
        guard range.contains(value) else {
            fail(
                name,
                text(Messages.formBetween, ["label": label, "low": LocalizedNumber(range.lowerBound), "high": LocalizedNumber(range.upperBound)]))
            return value
        }
        return value
    }

    /// An e-mail address, lower-cased, that mail can be sent to (``EmailAddressSyntax``) and
    /// whose domain has a dot. An address in other letters than ASCII gets its own message: the
    /// visitor learns to give another address, not that theirs is mistyped.
    public mutating func email(_ name: String, label: String? = nil) -> String {
        let label = label ?? text(Messages.formEmailLabel, [:])
        let value = text(name, maxLength: 254, label: label).lowercased()
        guard errors[name] == nil else { return value }
        switch EmailAddressSyntax.problem(in: value) {
        case .some(.notASCII):
            fail(name, text(Messages.formEmailNotAscii, ["label": label]))
        case .some(.malformed):
            fail(name, text(Messages.formEmail, ["label": label]))
        case .none where !value.split(separator: "@").last!.contains("."):
            fail(name, text(Messages.formEmail, ["label": label]))
        case .none:
            break
        }
        return value
    }

    /// Records `message` for `field` unless `condition` holds (a rule across fields, say).
    public mutating func check(_ condition: Bool, _ field: String, _ message: String) {
        if !condition { fail(field, message) }
    }

    /// Records a message for `field`; the first one for a field wins.
    public mutating func fail(_ field: String, _ message: String) {
        if errors[field] == nil { errors[field] = message }
    }
}

/// What a submission turned out to be.
public enum FormSubmission<Model: FormModel>: Sendable {
    /// Every field read without a message: the model, ready to use.
    case valid(Model)
    /// The values as submitted and a message per field, to render the form again (422).
    case invalid(FormState)
}

/// A submitted form to show again: its values, and its messages by field.
public struct FormState: Sendable, Equatable {
    /// The submitted values by field name, to fill the form in again.
    public var values: [String: String]
    /// The message for each field that is wrong, by field name.
    public var errors: [String: String]

    /// A form's state; the empty one for a form shown for the first time.
    public init(values: [String: String] = [:], errors: [String: String] = [:]) {
        self.values = values
        self.errors = errors
    }

    /// The submitted value of `field`, or an empty string, ready for a `value` attribute.
    public func value(_ field: String) -> String { values[field] ?? "" }
    /// The message for `field`, or `nil` when it is fine.
    public func error(_ field: String) -> String? { errors[field] }
    /// Whether no field has a message.
    public var isValid: Bool { errors.isEmpty }
}

extension RequestContext {
    /// Decodes the request's form into `Model`. A body that is not a form at all is a 400 or 415.
    public func decodeForm<Model: FormModel>(_ type: Model.Type) throws(HTTPError) -> FormSubmission<Model> {
        let data = try request.form()
        var reader = FormReader(data, language: language)
        let model = Model(reading: &reader)
        guard reader.errors.isEmpty else {
            var values: [String: String] = [:]
            for item in data.fields where values[item.name] == nil {
                values[item.name] = item.value
            }
            return .invalid(FormState(values: values, errors: reader.errors))
        }
        return .valid(model)
    }
}
