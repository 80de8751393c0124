import Tessera

/// The recipe form, read and checked: each wrong field gets its message.
struct RecipeForm: FormModel {
    var name: String
    var minutes: Int
    var steps: String
    var vegetarian: Bool

    init(reading form: inout FormReader) {
        name = form.text("name", maxLength: 200, label: "Name")
        minutes = form.integer("minutes", in: 0...1_000_000_000, label: "Minutes")
        steps = form.text("steps", maxLength: 10_000, label: "Steps", multiline: true)
        vegetarian = form.data["vegetarian"] == "on"
    }

    /// The recipe `id` with the form's values.
    func recipe(id: Int) -> Recipe {
        Recipe(id: id, name: name, minutes: minutes, steps: steps, vegetarian: vegetarian)
    }
}
