import SwiftParser
import SwiftSyntax
public func parse(_ s: String) -> SourceFileSyntax { Parser.parse(source: s) }
