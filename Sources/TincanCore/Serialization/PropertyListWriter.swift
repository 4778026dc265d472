/// Writes ``ParameterValue`` trees as XML property lists, in the layout Core Foundation writes.
///
/// Dictionary keys are sorted, as Core Foundation sorts them. Null and sets have no property-list
/// form, so they are errors that name the key path.
public enum PropertyListWriter {
    /// The XML property list for `value`.
    ///
    /// - Throws: ``RequestSerializationError/Reason/invalidPropertyListParameters(_:)``.
    public static func xml(_ value: ParameterValue) throws -> [UInt8] {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        try write(value, level: 0, path: "", to: &output)
        output += "</plist>\n"
        return Array(output.utf8)
    }

    private static func write(_ value: ParameterValue, level: Int, path: String, to output: inout String) throws {
        let indent = String(repeating: "\t", count: level)
        switch value {
        case .string(let string): output += "\(indent)<string>\(escape(string))</string>\n"
        case .integer(let integer): output += "\(indent)<integer>\(integer)</integer>\n"
        case .double(let double):
            guard double.isFinite else { throw invalid(path, "is \(double)") }
            output += "\(indent)<real>\(ParameterValue.format(double))</real>\n"
        case .bool(let bool): output += "\(indent)\(bool ? "<true/>" : "<false/>")\n"
        case .null: throw invalid(path, "is null, which property lists cannot represent")
        case .set: throw invalid(path, "is a set, which property lists cannot represent")
        case .array(let array):
            guard !array.isEmpty else {
                output += "\(indent)<array/>\n"
                return
            }
            output += "\(indent)<array>\n"
            for (offset, element) in array.enumerated() {
                try write(element, level: level + 1, path: "\(path)[\(offset)]", to: &output)
            }
            output += "\(indent)</array>\n"
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else {
                output += "\(indent)<dict/>\n"
                return
            }
            output += "\(indent)<dict>\n"
            for key in QueryString.sortedKeys(dictionary) {
                output += "\(indent)\t<key>\(escape(key))</key>\n"
                try write(dictionary[key]!, level: level + 1, path: path.isEmpty ? key : "\(path).\(key)", to: &output)
            }
            output += "\(indent)</dict>\n"
        }
    }

    private static func invalid(_ path: String, _ problem: String) -> RequestSerializationError {
        RequestSerializationError(.invalidPropertyListParameters("\(path.isEmpty ? "the value" : path) \(problem)"))
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
