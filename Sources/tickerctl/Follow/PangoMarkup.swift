/// Escapes text for Pango markup (waybar's `text` and `tooltip`): `&`, `<`, `>`, `"` and `'`
/// become entities, so no message can open a tag or an entity.
enum PangoMarkup {
    /// `text` with markup characters replaced by entities.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
