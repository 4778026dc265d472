import Foundation
import OrderedCollections

/// Decodes property lists (`application/x-plist`), XML or binary, into the same value tree as JSON.
///
/// Dates become ISO 8601 strings and data becomes Base64 text, since the tree has no such kinds.
public struct PropertyListResponseSerializer: ResponseSerializer {
    public var acceptableStatusCodes: StatusCodeSet? = .successful
    public var acceptableContentTypes: Set<String>? = ["application/x-plist"]
    public var kind: ResponseSerializerKind { .plist }

    /// Creates the serializer.
    public init() {}

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        validatingThenDecoding(response, data: data, request: request) { () throws(ResponseSerializationError) -> DecodedBody in
            if data.isEmpty { return .none }
            do {
                let object = try PropertyListSerialization.propertyList(from: Data(data), options: [], format: nil)
                return .propertyList(Self.value(from: object))
            } catch {
                throw ResponseSerializationError(.decodingFailed(format: "property list", detail: "\(error.localizedDescription)"), response: response, data: data)
            }
        }
    }

    static func value(from object: Any) -> ParameterValue {
        switch object {
        case let string as String: return .string(string)
        // Linux's Foundation gives booleans as Swift Bool and numbers as NSNumber; the NSNumber's
        // type code tells <real> ("d", "f") from <integer>.
        case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .double(number.doubleValue) : .integer(number.int64Value)
        case let date as Date: return .string(ISO8601DateFormatter().string(from: date))
        case let data as Data: return .string(data.base64EncodedString())
        case let array as [Any]: return .array(array.map(value(from:)))
        case let dictionary as [String: Any]:
            var result = OrderedDictionary<String, ParameterValue>()
            for key in dictionary.keys.sorted() { result[key] = value(from: dictionary[key]!) }
            return .dictionary(result)
        default: return .string("\(object)")
        }
    }
}

