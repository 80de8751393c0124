extension Request {
    /// The first cookie called `name`, found without parsing the others: what a step that needs
    /// one cookie (the session's, the language's) asks on every request.
    public func cookie(_ name: String) -> String? {
        var found: String?
        headers.forEachValue(of: .cookie) { header in
            Cookies.scan(header) { pairName, value in
                guard pairName.elementsEqual(name.utf8) else { return true }
                found = String(decoding: value, as: UTF8.self)
                return false
            }
        }
        return found
    }
}
