import CLibXML2
import Foundation

/// Reads a document into a ``FeedXMLNode`` tree with libxml2's SAX interface, or says where the
/// XML was broken.
///
/// Guarantees: nothing is loaded from the network or from files (no external subset, no
/// external entity); predefined and character references are decoded, and an entity the
/// document declares itself is never expanded (a reference to it reads as nothing), so no
/// declaration can make the text grow. Elements nested deeper than ``maximumDepth`` stop the
/// parse. Each parse has its own libxml2 parser context and error handler, so documents may be
/// read on several threads at once. Element and attribute names are the qualified names as
/// written; the tree resolves their prefixes itself.
enum XMLTreeBuilder {
    /// Elements deeper than this are an error (no feed nests this deep; it bounds the work).
    static let maximumDepth = 256

    /// libxml2's global state, set up once before the first parse (its parser contexts are then
    /// safe to use on several threads, one context per thread).
    private static let libraryReady: Void = xmlInitParser()

    /// The document's root element, or an error naming the line and what libxml2 reported.
    static func parse(_ original: Data) throws(FeedParseError) -> FeedXMLNode {
        _ = libraryReady
        // HTML's entities and bare ampersands, as real feeds have them, read as they are meant.
        let bytes = XMLRepair.repaired([UInt8](original))
        guard bytes.count < Int32.max else { throw FeedParseError("the document is too large") }
        let reader = SAXReader()
        try withExtendedLifetime(reader) { () throws(FeedParseError) in
            var handler = SAXReader.handler()
            guard let context = xmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(reader).toOpaque(), nil, 0, nil)
            else { throw FeedParseError("libxml2 could not start a parser") }
            defer { xmlFreeParserCtxt(context) }
            // Neither NOENT (which would load external entities) nor DTDLOAD. References are
            // replaced in attribute values, so those come decoded, but every entity libxml2 can
            // find is predefined or one of the reader's placeholders with empty text: nothing the
            // document declares is expanded or loaded.
            _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
            context.pointee.replaceEntities = 1
            context.pointee.loadsubset = 0
            reader.context = context
            defer { reader.context = nil }
            _ = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(context, $0.baseAddress, Int32($0.count), 1) }
            }
        }
        if reader.tooDeep {
            throw FeedParseError("XML nested deeper than \(maximumDepth) elements")
        }
        if let error = reader.firstError {
            throw FeedParseError("not well-formed XML (line \(error.line)): \(describe(code: error.code, message: error.message))")
        }
        guard let root = reader.root else { throw FeedParseError("not well-formed XML: no root element") }
        return root
    }

    /// What libxml2 found wrong, in words: the common errors (libxml2's `xmlParserErrors`) are
    /// named here, the others by libxml2's own message.
    static func describe(code: Int, message: String) -> String {
        let words: [Int: String] = [
            4: "the document is empty", 5: "extra content after the root element", 9: "a character XML does not allow",
            26: "an undeclared entity", 38: "'<' in an attribute value", 39: "an attribute value without quotes",
            41: "an attribute without a value", 42: "an attribute given twice",
            64: "an XML declaration after the start of the document", 68: "a name was expected",
            73: "'>' was expected", 76: "an end tag that does not match its start tag",
            77: "the document ends inside an element",
        ]
        let fallback = message.trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(words[code] ?? (fallback.isEmpty ? "an error" : fallback)) (libxml2 error \(code))"
    }
}

/// The state of one parse, reached from libxml2's callbacks through the user-data pointer.
private final class SAXReader {
    var context: xmlParserCtxtPtr?
    var stack: [FeedXMLNode] = []
    var root: FeedXMLNode?
    var tooDeep = false
    /// The first error (not warning) libxml2 reported: it may carry on after some.
    var firstError: (code: Int, line: Int, message: String)?
    /// Placeholders, with empty replacement text, for the general entities the document
    /// declares, so references to them are well-formed but add nothing.
    private var entities: xmlDocPtr?

    deinit {
        if let entities { xmlFreeDoc(entities) }
    }

    static func reader(_ pointer: UnsafeMutableRawPointer?) -> SAXReader {
        Unmanaged<SAXReader>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// A SAX2 handler (libxml2 2.9 uses the structured error callback only for one) whose
    /// element callbacks put the qualified names back together as written.
    static func handler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = CLIBXML2_SAX2_MAGIC
        handler.startElementNs = { user, name, prefix, _, namespaceCount, namespaces, attributeCount, _, attributes in
            SAXReader.reader(user).start(name, prefix, namespaces, Int(namespaceCount), attributes, Int(attributeCount))
        }
        handler.endElementNs = { user, _, _, _ in _ = SAXReader.reader(user).stack.popLast() }
        let characters: charactersSAXFunc = { user, bytes, count in SAXReader.reader(user).text(bytes, count) }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = { user, bytes, count in SAXReader.reader(user).text(bytes, count) }
        handler.entityDecl = { user, name, type, _, _, _ in SAXReader.reader(user).declare(name, type: type) }
        handler.getEntity = { user, name in SAXReader.reader(user).entity(name) }
        handler.serror = { user, error in SAXReader.reader(user).report(error) }
        return handler
    }

    /// `prefix:name` as written, or `name` without a prefix.
    private static func qualified(_ name: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?) -> String {
        prefix.map { String(cString: $0) + ":" + String(cString: name) } ?? String(cString: name)
    }

    /// An element starts: `namespaces` holds `namespaceCount` (prefix, URI) pairs, the
    /// document's `xmlns` attributes; `attributes` holds `attributeCount` (name, prefix, URI,
    /// value, end of value) quintuples, the others.
    func start(_ name: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
               _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ namespaceCount: Int,
               _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int) {
        guard let name else { return }
        guard stack.count < XMLTreeBuilder.maximumDepth else {
            tooDeep = true
            if let context { xmlStopParser(context) }
            return
        }
        var values: [String: String] = [:]
        if let namespaces {
            for index in 0..<namespaceCount {
                let key = namespaces[2 * index].map { "xmlns:" + String(cString: $0) } ?? "xmlns"
                values[key] = namespaces[2 * index + 1].map { String(cString: $0) } ?? ""
            }
        }
        if let attributes {
            for index in 0..<attributeCount {
                guard let local = attributes[5 * index], let value = attributes[5 * index + 3],
                      let end = attributes[5 * index + 4], end >= value else { continue }
                values[Self.qualified(local, attributes[5 * index + 1])] =
                    String(decoding: UnsafeBufferPointer(start: value, count: end - value), as: UTF8.self)
            }
        }
        let element = FeedXMLNode(qualifiedName: Self.qualified(name, prefix), attributes: values, parent: stack.last)
        if let parent = stack.last { parent.append(element) } else if root == nil { root = element }
        stack.append(element)
    }

    func text(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
        guard let bytes, count > 0, !stack.isEmpty else { return }
        let string = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
        stack[stack.count - 1].text += string
        for element in stack { element.allText += string }
    }

    func declare(_ name: UnsafePointer<xmlChar>?, type: Int32) {
        let general = [XML_INTERNAL_GENERAL_ENTITY, XML_EXTERNAL_GENERAL_PARSED_ENTITY].map { Int32($0.rawValue) }
        guard let name, general.contains(type), xmlGetPredefinedEntity(name) == nil else { return }
        if entities == nil {
            entities = xmlNewDoc(nil)
            guard let entities, xmlCreateIntSubset(entities, nil, nil, nil) != nil else { return }
        }
        guard let entities, xmlGetDocEntity(entities, name) == nil else { return }  // the first declaration counts
        let empty: [xmlChar] = [0]
        _ = xmlAddDocEntity(entities, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, empty)
    }

    func entity(_ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
        guard let name, let entities else { return nil }
        return xmlGetDocEntity(entities, name)
    }

    func report(_ error: xmlErrorPtr?) {
        guard firstError == nil, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? ""
        firstError = (Int(error.pointee.code), Int(error.pointee.line), message)
    }
}
