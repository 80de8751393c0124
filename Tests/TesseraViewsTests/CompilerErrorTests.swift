import TesseraTemplateCompiler
import Testing

/// Every template mistake fails the build with `path:line:column: error: message`.
@Suite struct CompilerErrorTests {
    func error(_ template: String) -> String? {
        do {
            _ = try TemplateCompiler.compile(source: template, path: "Views/Shop/page.html", relativePath: "page.html")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func syntaxErrorsPointAtTheTemplate() {
        let cases: [(String, String)] = [
            (
                "{% model m: M %}\n<p>\n{% if m.ok %}\nunclosed",
                "Views/Shop/page.html:3:1: error: unclosed {% if %}: expected {% endif %} before the end of the template"
            ),
            ("{% model m: M %}\n{% frobnicate %}", "Views/Shop/page.html:2:1: error: unknown tag “frobnicate”"),
            (
                "{% model m: M %}\n{% for x in m.xs %}\n  {% endif %}",
                "Views/Shop/page.html:3:3: error: unexpected {% endif %} (expected {% endfor %})"
            ),
            ("{% model m: M %}\n{% endfor %}", "Views/Shop/page.html:2:1: error: unexpected {% endfor %}"),
            ("{% model m: M %}\n<p>{{ m.name </p>", "Views/Shop/page.html:2:4: error: unclosed {{: expected }}"),
            ("<p>{{ x }}</p>", "Views/Shop/page.html:1:1: error: a template must declare its model first: {% model name: Type %}"),
            (
                "{% model m: M %}{{ m.name() }}",
                "Views/Shop/page.html:1:17: error: unexpected “(”: templates take property paths, filters and literals only"
            ),
            (
                "{% model m: M %}{{ m.a + m.b }}",
                "Views/Shop/page.html:1:17: error: unexpected “+”: templates take property paths, filters and literals only"
            ),
            (
                "{% model m: M %}{% for x m.xs %}{% endfor %}",
                "Views/Shop/page.html:1:17: error: expected “in”: {% for item in items %}"
            ),
            (
                "{% model m: M %}\n<a href=\"{{ route product }}\">",
                "Views/Shop/page.html:2:10: error: name the route with its type, such as CatalogRoutes.product"
            ),
            (
                "{% model m: M %}\n<a href=\"{{ route Shop.product(m.id }}\">",
                "Views/Shop/page.html:2:10: error: expected “)”"
            ),
        ]
        for (template, expected) in cases {
            #expect(error(template) == expected, "\(template)")
        }
    }

    @Test func aRouteLinkIsSwiftTheCompilerChecks() throws {
        let swift = try TemplateCompiler.compile(
            source: "{% model m: M %}\n<a href=\"{{ route Shop.list }}\">{{ route Shop.item(m.id) }}</a>{{ route.name }}",
            path: "Views/Shop/page.html", relativePath: "page.html")
        #expect(swift.contains("output.urlAttribute(Shop.list.path)"))
        #expect(swift.contains("output.text(Shop.item.path(m.id))"))
        #expect(swift.contains("output.text(route.name)"), "a model property named route stays a property")
    }

    @Test func unsafePlacesForValuesAreRefused() {
        let cases: [(String, String)] = [
            (
                "{% model m: M %}\n<script>var x = {{ m.x }};</script>",
                "Views/Shop/page.html:2:17: error: inside <script>, values must go through the json filter: {{ value | json }}"
            ),
            (
                "{% model m: M %}<style>p { color: {{ m.c }} }</style>",
                "Views/Shop/page.html:1:35: error: no interpolation inside <style>"
            ),
            (
                "{% model m: M %}<a href={{ m.url }}>x</a>",
                "Views/Shop/page.html:1:25: error: attribute values with interpolation must be quoted: name=\"{{ … }}\""
            ),
            (
                "{% model m: M %}<div {{ m.attrs }}></div>",
                "Views/Shop/page.html:1:22: error: interpolation is only allowed in text or inside a quoted attribute value, not in the middle of a tag"
            ),
            (
                "{% model m: M %}<button onclick=\"go({{ m.id }})\">",
                "Views/Shop/page.html:1:37: error: no interpolation in event-handler attributes (onclick): their value is JavaScript"
            ),
            (
                "{% model m: M %}<p style=\"color: {{ m.c }}\">",
                "Views/Shop/page.html:1:34: error: no interpolation in style attributes: their value is CSS"
            ),
            (
                "{% model m: M %}<!-- {{ m.note }} -->",
                "Views/Shop/page.html:1:22: error: no interpolation inside HTML comments"
            ),
            (
                "{% model m: M %}\n{% if m.a %}<div class=\"{% else %}<div>{% endif %}x\">",
                "Views/Shop/page.html:2:1: error: the branches of this if leave the HTML in different places (an unclosed tag or attribute?)"
            ),
            (
                "{% model m: M %}<p title=\"unclosed",
                "Views/Shop/page.html:1:17: error: the template ends inside a tag, an attribute, a comment or a script: close it"
            ),
        ]
        for (template, expected) in cases {
            #expect(error(template) == expected, "\(template)")
        }
    }

    @Test func scriptJSONAndURLsCompileToTheirEscapers() throws {
        let swift = try TemplateCompiler.compile(
            source: "{% model m: M %}<script>const d = {{ m.data | json }};</script><a href=\"{{ m.url }}\" title=\"{{ m.t }}\">{{ m.t }}</a>",
            path: "Views/Shop/page.html", relativePath: "page.html")
        #expect(swift.contains("output.script(Filters.json(m.data))"))
        #expect(swift.contains("output.urlAttribute(m.url)"))
        #expect(swift.contains("output.attribute(m.t)"))
        #expect(swift.contains("output.text(m.t)"))
        #expect(swift.contains(#"#sourceLocation(file: "Views/Shop/page.html", line: 1)"#))
    }

    @Test func tagsAloneOnTheirLineTakeTheLineWithThem() throws {
        let swift = try TemplateCompiler.compile(
            source:
                "{% model m: M %}\n{# a comment #}\n<ul>\n  {% for x in m.xs %}\n  <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n{% if m.a %}<b>{% endif %}\n",
            path: "Views/Shop/page.html", relativePath: "page.html")
        #expect(swift.contains(#"output.write(static: "<ul>\n")"#))
        #expect(swift.contains(#"output.write(static: "  <li>")"#))
        #expect(swift.contains(#"output.write(static: "</li>\n")"#))
        #expect(swift.contains(#"output.write(static: "</ul>\n")"#))
        // Not alone on its line: the newline after it stays.
        #expect(swift.contains(#"output.write(static: "\n")"#))
    }

    @Test func rawTextIsWrittenAsItIsTagsAndAll() throws {
        let swift = try TemplateCompiler.compile(
            source: "{% model m: M %}\n{% raw %}\n<p>{{ page.title }}</p>{% if x %}\n{% endraw %}\n{{ m.name }} {% raw %}{# kept #}{% endraw %}\n",
            path: "Views/Shop/generator.txt", relativePath: "generator.txt")
        #expect(swift.contains(#"output.write(static: "<p>{{ page.title }}</p>{% if x %}\n")"#))
        #expect(swift.contains("output.plainText(m.name)"))
        #expect(swift.contains(#"output.write(static: " {# kept #}\n")"#), "raw text joins the text around it")
        #expect(!swift.contains("page.title)"), "nothing inside raw is compiled")
        #expect(error("{% model m: M %}\n{% raw %}<p>{{ x }}") == "Views/Shop/page.html:2:1: error: unclosed {% raw %}: expected {% endraw %}")
        // Raw blocks do not nest, and an `endraw` with no raw block is no tag.
        #expect(error("{% model m: M %}\n{% endraw %}") == "Views/Shop/page.html:2:1: error: unknown tag “endraw”")
        #expect(error("{% model m: M %}{% raw %}a{% raw %}b{% endraw %}c\n{% endraw %}") == "Views/Shop/page.html:2:1: error: unknown tag “endraw”")
    }

    @Test func typeNamesFollowThePath() {
        #expect(ViewTypeName.forTemplate(atRelativePath: "card.html") == "CardView")
        #expect(ViewTypeName.forTemplate(atRelativePath: "products/card.html") == "ProductsCardView")
        #expect(ViewTypeName.forTemplate(atRelativePath: "order-row_awaiting.html") == "OrderRowAwaitingView")
        #expect(ViewTypeName.forTemplate(atRelativePath: "layouts/site.html") == "LayoutsSiteView")
        #expect(ViewTypeName.forTemplate(atRelativePath: "HeaderView.html") == "HeaderView")
        #expect(ViewTypeName.forTemplate(atRelativePath: "mail/placed.txt") == "MailPlacedTextView")
    }

    @Test func aTextTemplateWritesValuesAsTheyAreAndHasNoPageParts() throws {
        let swift = try TemplateCompiler.compile(
            source: "{% model m: M %}<a href=\"{{ m.url }}\"><form>{{ m.name }}</form>",
            path: "Views/Shop/mail.txt", relativePath: "mail.txt")
        #expect(swift.contains("enum MailTextView: TextView"))
        #expect(swift.contains("output.plainText(m.url)"))
        for (template, message) in [
            ("{% model m: M %}{% region cart %}", "a text template has no regions or blocks"),
            ("{% model m: M %}{% block body %}x{% endblock %}", "a text template has no regions or blocks"),
            ("{% model m: M %}{% extends LayoutsBaseView(m) %}", "a text template cannot extend a layout"),
        ] {
            do {
                _ = try TemplateCompiler.compile(source: template, path: "Views/Shop/mail.txt", relativePath: "mail.txt")
                Issue.record("compiled: \(template)")
            } catch {
                #expect(error.description.hasPrefix("Views/Shop/mail.txt:1:"), "\(error)")
                #expect(error.description.contains(message), "\(error)")
            }
        }
    }
}
