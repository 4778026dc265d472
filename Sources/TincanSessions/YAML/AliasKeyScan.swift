// libyaml, as Yams builds it: its scanner reads the text exactly as Yams will, without
// composing anything. Yams exposes no token API of its own.
import CYaml

/// Finds an alias used in a mapping key, before Yams composes the text.
///
/// Yams checks every mapping for duplicate keys by hashing them, and the hash of an alias walks
/// the whole node it names: a key that is (or holds) an alias of aliases ("billion laughs" as a
/// key) keeps the composer busy for ever, before ``AliasLimit`` can count anything. Tincan's keys
/// are text, so an alias is never part of a valid key; the scan refuses one at its place.
///
/// It runs libyaml's scanner over the tokens: after a KEY token and until its VALUE token, an
/// ALIAS token, alone or inside a flow or block collection used as the key, is the fault. The
/// scanner reads line breaks, quotes, comments and block scalars as the composer will; a text
/// the scanner cannot read is left to the composer, which reports it.
enum AliasKeyScan {
    /// The first alias inside a key: its name and 1-based line and column.
    static func firstAliasKey(in text: String) -> (name: String, location: SourceLocation)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> (String, SourceLocation)? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var inKey = false
            // Collections opened inside the key being read: their own keys and values are part of it.
            var depth = 0
            var token = yaml_token_t()
            while yaml_parser_scan(&parser, &token) == 1 {
                defer { yaml_token_delete(&token) }
                switch token.type {
                case YAML_STREAM_END_TOKEN:
                    return nil
                case YAML_KEY_TOKEN where depth == 0:
                    inKey = true
                case YAML_VALUE_TOKEN where depth == 0:
                    inKey = false
                case YAML_ALIAS_TOKEN where inKey:
                    let name = token.data.alias.value.map { String(cString: $0) } ?? "?"
                    return (name, SourceLocation(line: token.start_mark.line + 1, column: token.start_mark.column + 1))
                case YAML_FLOW_SEQUENCE_START_TOKEN, YAML_FLOW_MAPPING_START_TOKEN, YAML_BLOCK_SEQUENCE_START_TOKEN, YAML_BLOCK_MAPPING_START_TOKEN:
                    if inKey { depth += 1 }
                case YAML_FLOW_SEQUENCE_END_TOKEN, YAML_FLOW_MAPPING_END_TOKEN, YAML_BLOCK_END_TOKEN:
                    if inKey, depth > 0 { depth -= 1 }
                default:
                    break
                }
            }
            return nil
        }
    }
}
