/// Why a generator wrote nothing, in one line for the person who ran it; exit status 1.
struct Refusal: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
