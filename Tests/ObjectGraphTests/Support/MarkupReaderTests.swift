import Foundation
import Testing

@testable import ObjectGraph

@Suite struct MarkupReaderTests {
    private func parse(_ text: String) throws -> MarkupElement {
        try MarkupReader.parse(Array(text.utf8))
    }

    private func failure(_ text: String, limits: MarkupReader.Limits = .init()) -> PersistenceError? {
        #expect(throws: PersistenceError.self) { try MarkupReader.parse(Array(text.utf8), limits: limits) }
    }

    // MARK: - Well-formed documents

    @Test func readsElementsAttributesAndTextWithLines() throws {
        let root = try parse(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment with <tags> & ampersands -->
            <model name='single' other="double">
                <entity name="A"/>
                <entity name="B">text <![CDATA[<raw> & ]]>more<?pi ignored?></entity>
            </model>
            """)
        #expect(root.name == "model")
        #expect(root[attribute: "name"] == "single")
        #expect(root[attribute: "other"] == "double")
        #expect(root.line == 4)
        #expect(root.children.map(\.name) == ["entity", "entity"])
        #expect(root.children.map(\.line) == [5, 6])
        #expect(root.children[1].text == "text <raw> & more")
        #expect(root.firstChild(named: "entity")?[attribute: "name"] == "A")
    }

    @Test func resolvesPredefinedEntitiesAndCharacterReferences() throws {
        let root = try parse(#"<a v="&lt;&gt;&amp;&quot;&apos;&#65;&#x1F600;">x &gt; 1</a>"#)
        #expect(root[attribute: "v"] == "<>&\"'A😀")
        #expect(root.text == "x > 1")
    }

    @Test func normalizesWhitespaceInAttributeValuesButKeepsReferences() throws {
        let root = try parse("<a v=\"one\ntwo&#10;three\"/>")
        #expect(root[attribute: "v"] == "one two\nthree")
    }

    @Test func skipsADoctypeWithAnInternalSubset() throws {
        let root = try parse("<!DOCTYPE a [ <!ENTITY x \"]>\"> ]>\n<a/>")
        #expect(root.name == "a")
        #expect(root.line == 2)
    }

    @Test func acceptsAByteOrderMark() throws {
        let root = try MarkupReader.parse([0xEF, 0xBB, 0xBF] + Array("<a/>".utf8))
        #expect(root.name == "a")
    }

    // MARK: - Malformed documents

    @Test func mismatchedEndTagNamesTheLine() {
        let error = failure("<a>\n<b>\n</c>\n</a>")
        #expect(error?.code == .invalidModel)
        #expect(error?.line == 3)
        #expect(error?.message.contains("'</c>' does not match the open element 'b'") == true)
    }

    @Test func unterminatedDocumentsAreRefused() {
        for (text, phrase) in [
            ("<a><b></b>", "ends inside element 'a'"), ("<a", "ends inside the start tag"),
            ("<a v=\"x/>", "attribute value"), ("<a><!-- open", "comment"), ("<a><![CDATA[x", "CDATA"),
            ("", "no root element"), ("<a/><b/>", "second root element"), ("text", "outside the root"),
        ] {
            let error = failure(text)
            #expect(error?.code == .invalidModel, "\(text)")
            #expect(error?.message.contains(phrase) == true, "\(text): \(error?.message ?? "")")
        }
    }

    @Test func badReferencesAndAttributesAreRefused() {
        for (text, phrase) in [
            ("<a>&nbsp;</a>", "not one of XML's five"), ("<a>AT&T</a>", "'&amp;'"),
            ("<a>&#0;</a>", "names no character"),
            (#"<a v="1" v="2"/>"#, "twice"), (#"<a v="<"/>"#, "'&lt;'"), ("<a v=1/>", "not in quotes"),
            (#"<a v="1"w="2"/>"#, "needs a space"), ("<1a/>", "starts with '1'"),
        ] {
            let error = failure(text)
            #expect(error?.code == .invalidModel, "\(text)")
            #expect(error?.message.contains(phrase) == true, "\(text): \(error?.message ?? "")")
        }
    }

    @Test func otherEncodingsAreRefusedWithWhatToDo() {
        let declared = failure(#"<?xml version="1.0" encoding="ISO-8859-1"?><a/>"#)
        #expect(declared?.message.contains("save it as UTF-8") == true)
        let utf16 = #expect(throws: PersistenceError.self) { try MarkupReader.parse([0xFF, 0xFE, 0x3C, 0x00]) }
        #expect(utf16?.message.contains("UTF-16") == true)
        let invalid = #expect(throws: PersistenceError.self) {
            try MarkupReader.parse(Array("<a>".utf8) + [0xC3, 0x28] + Array("</a>".utf8))
        }
        #expect(invalid?.message.contains("not valid UTF-8") == true)
    }

    @Test func aNULCharacterInTheDeclarationIsRefused() {
        let error = failure("<?xml version=\"1.0\" é\u{0} encoding=\"UTF-8\"?><a/>")
        #expect(error?.message.contains("NUL character") == true)
    }

    @Test func depthAndSizeAreBounded() {
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(failure(deep)?.message.contains("nest deeper than 256") == true)
        var limits = MarkupReader.Limits()
        limits.maximumBytes = 10
        #expect(failure("<a>0123456789</a>", limits: limits)?.message.contains("above the limit") == true)
        limits = MarkupReader.Limits()
        limits.maximumElements = 3
        #expect(failure("<a><b/><b/><b/></a>", limits: limits)?.message.contains("more than 3 elements") == true)
    }

    @Test func errorsNameTheFile() {
        let file = URL(fileURLWithPath: "/tmp/Model.xcdatamodel/contents")
        let error = #expect(throws: PersistenceError.self) { try MarkupReader.parse(Array("<a>".utf8), file: file) }
        #expect(error?.fileURL == file)
        #expect(error?.message.contains("/tmp/Model.xcdatamodel/contents, line 1") == true)
    }
}
