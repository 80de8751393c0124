/// The Swift type a template compiles into, from its path under the module's views folder:
/// every path component and word becomes UpperCamelCase, and `View` is appended.
/// `products/card.html` → `ProductsCardView`; `order-row_awaiting.html` → `OrderRowAwaitingView`.
/// A text template's name says so: `mail/placed.txt` → `MailPlacedTextView`.
public enum ViewTypeName {
    public static func forTemplate(atRelativePath path: String) -> String {
        var withoutExtension = Substring(path)
        if let dot = withoutExtension.lastIndex(of: "."), !withoutExtension[dot...].contains("/") {
            withoutExtension = withoutExtension[..<dot]
        }
        let words = withoutExtension.split { !($0.isLetter || $0.isNumber) }
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.first?.isNumber ?? true { name = "Template" + name }
        if TemplateKind(relativePath: path) == .text { name += "Text" }
        return name.hasSuffix("View") ? name : name + "View"
    }
}
