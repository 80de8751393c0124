import Foundation
import TesseraTemplateCompiler
import Testing

/// What `make dev` compares before it rebuilds: two versions of a template whose markup alone
/// differs have one code shape, and anything that changes the code changes the shape.
@Suite struct TemplateMarkupTests {
    static let template = """
        {% model page: Page %}
        <section class="recipe">
          <h1>{{ page.title }}</h1>
          {% if page.isNew %}<p>New!</p>{% endif %}
          <form method="post" action="/recipes"><button>Save</button></form>
        </section>
        """

    func markup(_ source: String) throws -> TemplateMarkup {
        try TemplateCompiler.markup(source: source, path: "Views/Cookbook/page.html", relativePath: "page.html")
    }

    @Test func markupAloneKeepsTheShapeAndChangesTheRuns() throws {
        let before = try markup(Self.template)
        let after = try markup(
            Self.template.replacingOccurrences(of: #"<section class="recipe">"#, with: "<section class=\"dish\">\n  <p>Hello</p>")
                .replacingOccurrences(of: "New!", with: "Just added"))
        #expect(after.shape == before.shape, "line numbers and text are not part of the shape")
        #expect(after.runs != before.runs)
        #expect(after.runs.contains { $0.contains(#"<section class="dish">"#) })
        #expect(after.runs.contains { $0.contains("Just added") })
        #expect(before.runs.count == after.runs.count)
        // A form's method is markup too: forms carry no token the code would have to write.
        let get = try markup(Self.template.replacingOccurrences(of: #"method="post""#, with: #"method="get""#))
        #expect(get.shape == before.shape)
    }

    @Test(arguments: [
        ("{{ page.title }}", "{{ page.name }}", "an expression"),
        ("{% if page.isNew %}", "{% if page.isOld %}", "a control tag"),
        ("<h1>{{ page.title }}</h1>", "<h1 title=\"{{ page.title }}\"></h1>", "the escaping an expression gets (text to attribute)"),
        ("</section>", "{% region \"side\" %}</section>", "a region"),
    ])
    func aChangeToTheCodeChangesTheShape(from: String, to: String, what: String) throws {
        let before = try markup(Self.template)
        let after = try markup(Self.template.replacingOccurrences(of: from, with: to))
        #expect(after.shape != before.shape, "\(what)")
    }

    @Test func aTemplateThatDoesNotCompileHasNoMarkup() {
        #expect(throws: TemplateError.self) { try markup(Self.template.replacingOccurrences(of: "</h1>", with: "</h1")) }
    }
}
