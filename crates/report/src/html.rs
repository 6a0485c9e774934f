//! The report's HTML writer. Text from the scenario (names, agreements, descriptions,
//! problems) is never markup: it reaches the document only through [`Html::text`], which
//! calls the one escaping function, [`escape`]. Markup is only ever the report's own
//! `&'static str`s ([`Html::raw`]) and the charts' SVG, which plotters' SVG backend writes
//! with its texts escaped.

/// `s` as HTML text, safe in element content and in quoted attribute values: `&`, `<`,
/// `>`, `"` and `'` become character references, nothing else changes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An HTML document being written.
#[derive(Default)]
pub struct Html {
    out: String,
}

impl Html {
    /// The report's own markup (never text from the scenario: that is [`Html::text`]'s).
    pub fn raw(&mut self, markup: &'static str) -> &mut Html {
        self.out.push_str(markup);
        self
    }

    /// Text, escaped ([`escape`]).
    pub fn text(&mut self, text: &str) -> &mut Html {
        self.out.push_str(&escape(text));
        self
    }

    /// `<tag class="class">text</tag>` (text escaped); `tag` and `class` are the report's.
    pub fn el(&mut self, tag: &'static str, class: &'static str, text: &str) -> &mut Html {
        self.open(tag, class).text(text).close(tag)
    }

    /// `<tag>` or `<tag class="class">`.
    pub fn open(&mut self, tag: &'static str, class: &'static str) -> &mut Html {
        self.out.push('<');
        self.out.push_str(tag);
        if !class.is_empty() {
            self.out.push_str(" class=\"");
            self.out.push_str(class);
            self.out.push('"');
        }
        self.out.push('>');
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &'static str) -> &mut Html {
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
        self
    }

    /// A swatch in share `i`'s colour (the style holds only the palette's `#rrggbb`).
    pub fn swatch(&mut self, i: usize) -> &mut Html {
        self.out.push_str("<span class=\"sw\" style=\"background:");
        self.out.push_str(&crate::palette::css(i));
        self.out.push_str("\"></span>");
        self
    }

    /// A chart drawn by plotters' SVG backend (its texts escaped by it).
    pub fn svg(&mut self, svg: &str) -> &mut Html {
        self.out.push_str(svg);
        self
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_turns_the_five_characters_into_references() {
        assert_eq!(
            escape(r#"<a href="x" onclick='y'>&amp;</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
        assert_eq!(escape("team ä · 2 ≤ 3"), "team ä · 2 ≤ 3");
    }
}
