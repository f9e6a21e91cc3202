import OarlogCore
@testable import OarlogTrace
import XCTest

/// The XML pull scanner: what it gives for each construct, and the errors (with line and column)
/// and bounds for bad or hostile input.
final class XMLScannerTests: XCTestCase {
    private let directory = TemporaryDirectory()
    override func tearDown() { directory.remove() }

    private func events(_ xml: String, limits: XMLScanner.Limits = XMLScanner.Limits(),
                        chunkBytes: Int = 256 * 1024) throws -> [XMLEvent] {
        var scanner = try XMLScanner(path: directory.file("doc.xml", xml), limits: limits, chunkBytes: chunkBytes)
        var out: [XMLEvent] = []
        while let e = try scanner.next() { out.append(e) }
        return out
    }

    /// The error `xml` gives: its kind, line, column and message.
    private func failure(_ xml: String, limits: XMLScanner.Limits = XMLScanner.Limits()) -> TraceError? {
        do {
            _ = try events(xml, limits: limits)
            return nil
        } catch let e as TraceError {
            return e
        } catch {
            XCTFail("not a TraceError: \(error)")
            return nil
        }
    }

    func testElementsAttributesAndNamespacePrefixes() throws {
        let got = try events("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator='a \"b\"'>\n <gpxtpx:hr>120</gpxtpx:hr><e/><f a = \"1\" /></gpx>\n")
        XCTAssertEqual(got, [
            .start(name: "gpx", attributes: [XMLAttribute(name: "version", value: "1.1"), XMLAttribute(name: "creator", value: "a \"b\"")]),
            .start(name: "gpxtpx:hr", attributes: []), .text("120"), .end(name: "gpxtpx:hr"),
            .start(name: "e", attributes: []), .end(name: "e"),
            .start(name: "f", attributes: [XMLAttribute(name: "a", value: "1")]), .end(name: "f"),
            .end(name: "gpx"),
        ])
        XCTAssertEqual("gpxtpx:hr".xmlLocalName, "hr")
        XCTAssertEqual("Lap".xmlLocalName, "Lap")
    }

    func testTheFiveEntitiesAndCharacterReferences() throws {
        let got = try events("<a x=\"1 &lt; 2 &amp;&amp; &quot;q&quot;\" y='it&apos;s &#x41;'>&lt;b&gt; &#65;&#x42;&#x263A; &amp;amp;</a>")
        XCTAssertEqual(got, [
            .start(name: "a", attributes: [XMLAttribute(name: "x", value: "1 < 2 && \"q\""), XMLAttribute(name: "y", value: "it's A")]),
            .text("<b> AB\u{263A} &amp;"), .end(name: "a"),
        ])
    }

    func testCommentsCDATAProcessingInstructionsAndDoctypeAreHandled() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE r [ <!ENTITY e "x > y"> <!-- ] --> ]>
            <!-- before -->
            <r><!-- a <comment> with -- dashes --><?pi data?><![CDATA[<b>&amp; ]] ></b>]]>tail</r>
            <!-- after -->
            """
        XCTAssertEqual(try events(xml), [
            .start(name: "r", attributes: []), .text("<b>&amp; ]] ></b>"), .text("tail"), .end(name: "r"),
        ])
    }

    /// The same document read 7 bytes at a time gives the same events: tokens straddling the
    /// chunks are put together.
    func testTinyChunksGiveTheSameEvents() throws {
        var xml = "<?xml version=\"1.0\"?>\n<root>\n"
        for k in 0..<300 {
            xml += "  <p n=\"\(k)\" note='&lt;\(k)&gt;'><!-- c\(k) --><v>\(Double(k) / 8)</v><![CDATA[\(k)]]></p>\n"
        }
        xml += "</root>\n"
        let whole = try events(xml)
        XCTAssertEqual(whole.count, 2 + 300 * 6)
        XCTAssertEqual(try events(xml, chunkBytes: 7), whole)
        XCTAssertEqual(whole[1], .start(name: "p", attributes: [XMLAttribute(name: "n", value: "0"), XMLAttribute(name: "note", value: "<0>")]))
    }

    func testErrorsNameLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("<a>\n  <b></c></a>", 2, 6, "expected </b> (opened at line 2), found </c>"),
            ("<a>\n x &nbsp; y</a>", 2, 4, "unknown entity &nbsp;"),
            ("<a>\n x & y</a>", 2, 4, "expected an entity such as &amp;"),
            ("<a>\n <b x=\"1<2\"/></a>", 2, 9, "\"<\" in the value of the attribute x"),
            ("<a>\n <b x=1/></a>", 2, 7, "expected a quoted value for the attribute x"),
            ("<a>\n <b x=\"1\"y=\"2\"/></a>", 2, 10, "expected a space"),
            ("<a>\n <b>text", 2, 9, "the file ends inside <b> (opened at line 2)"),
            ("<a/>\n<b/>", 2, 1, "a second element"),
            ("<a/>\ntrailing", 2, 1, "expected nothing after the root element's end, found text"),
            ("text first", 1, 1, "expected an XML element, found text"),
            ("<a>\n<!-- never closed </a>", 2, 1, "a comment that never ends"),
            ("<a>\n<![CDATA[ open </a>", 2, 1, "a CDATA section that never ends"),
            ("<a>\n </ a></a>", 2, 4, "expected an end tag name"),
            ("<a>&#0;</a>", 1, 4, "unknown entity &#0;"),
            ("<a>&#x110000;</a>", 1, 4, "unknown entity &#x110000;"),
            ("<!-- only a comment -->", 1, 24, "no XML element"),
        ]
        for (xml, line, column, fragment) in cases {
            guard let e = failure(xml) else {
                XCTFail("no error for \(xml.debugDescription)")
                continue
            }
            XCTAssertEqual(e.kind, .malformed, xml)
            XCTAssertEqual(e.line, line, "\(xml.debugDescription): \(e)")
            XCTAssertEqual(e.column, column, "\(xml.debugDescription): \(e)")
            XCTAssertTrue(e.message.contains(fragment), "\(xml.debugDescription): \(e)")
            XCTAssertTrue(e.description.hasPrefix(e.file + ":\(line):\(column): "), e.description)
            XCTAssertFalse(e.description.contains("\n"), "one line: \(e.description)")
        }
    }

    func testDepthBound() throws {
        let limits = XMLScanner.Limits(maxDepth: 4)
        XCTAssertEqual(try events("<a><b><c><d/></c></b></a>", limits: limits).count, 8)
        let e = failure("<a><b><c><d>\n<e/></d></c></b></a>", limits: limits)
        XCTAssertEqual(e?.kind, .tooLarge)
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.column, 1)
        XCTAssertTrue(e?.message.contains("nested deeper than 4") == true, "\(String(describing: e))")
        // The default holds a hostile file of a million open tags to 64.
        let deep = String(repeating: "<a>", count: 1000)
        XCTAssertTrue(failure(deep)?.message.contains("nested deeper than 64") == true)
    }

    func testTokenAttributeAndFileSizeBounds() throws {
        let small = XMLScanner.Limits(maxTokenBytes: 100, maxAttributes: 3, maxFileBytes: 10_000)
        XCTAssertEqual(try events("<a>" + String(repeating: "x", count: 90) + "</a>", limits: small).count, 3)
        let longText = failure("<a>" + String(repeating: "x", count: 500) + "</a>", limits: small)
        XCTAssertEqual(longText?.kind, .tooLarge)
        XCTAssertTrue(longText?.message.contains("longer than") == true, "\(String(describing: longText))")
        let longComment = failure("<a><!--" + String(repeating: "-x", count: 300) + "--></a>", limits: small)
        XCTAssertEqual(longComment?.kind, .tooLarge)
        let attributes = failure("<a w='1' x='2' y='3' z='4'/>", limits: small)
        XCTAssertEqual(attributes?.kind, .tooLarge)
        XCTAssertTrue(attributes?.message.contains("more than 3 attributes") == true)
        let big = failure("<a>" + String(repeating: "<b>1</b>", count: 2000) + "</a>", limits: small)
        XCTAssertEqual(big?.kind, .tooLarge)
        XCTAssertTrue(big?.message.contains("larger than") == true, "\(String(describing: big))")
    }

    func testBinaryAndEmptyFilesAreRefusedByTheBuffer() {
        XCTAssertEqual(failure("")?.kind, .empty)
        XCTAssertEqual(failure("<a>\u{0}</a>")?.kind, .notText)
    }
}
