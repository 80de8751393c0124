import TesseraHTTP
public import TesseraViews

extension HTTPError {
    /// An error answered with `status` whose message is a catalog's
    /// (`Messages.noSuchOrder.text(["id": id])`): its page is in the visitor's language.
    public init(_ status: HTTPResponse.Status, _ text: LocalizedText, headers: HTTPFields = [:]) {
        self.init(status, words: CatalogWords(text: text), headers: headers)
    }

    /// The 404 of an address nothing answers, in the visitor's language. Also what a part of the
    /// site that must not be known to a visitor (the back office, to a shopper) answers: the
    /// same page, word for word, in every language, so it gives nothing away.
    public static var nothingHere: HTTPError {
        HTTPError(.notFound, Messages.errorNothingHere.text())
    }

    /// The answer `ThrownError` gives an error that is not an `HTTPResponseError` (a fault of
    /// the server, a cancelled request), with its words in every language. The status and the
    /// header fields stay `answer`'s; the details a development server shows stay as they are.
    static func inLanguages(_ answer: any HTTPResponseError, for error: any Error, revealingDetails: Bool) -> any HTTPResponseError {
        guard !(error is any HTTPResponseError), !revealingDetails else { return answer }
        let words = error is CancellationError ? Messages.errorStopping : Messages.errorServer
        return HTTPError(answer.status, words.text(), headers: answer.headers)
    }
}
