//! Agreement text is never HTML (SPEC 14): a scenario with markup in every text field (its
//! name and description, every share's name and every agreement field) gives a report
//! that holds each of them only escaped, with no `<script` at all and no tag the scenario
//! wrote (no `onerror=` or other event attribute, no `src`, no `href`).

use quotalab_report::html::escape;
use serde_json::{json, Value};

const PRESET: &str = include_str!("../../../www/presets/recovery-not-free.json");

/// Markup that would run, load or restyle something if it reached the document as HTML.
const ATTACKS: [&str; 8] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "'><svg onload=alert(3)>",
    "</pre></details><script src=//evil.example/x.js></script>",
    "<iframe srcdoc='<script>alert(5)</script>'></iframe>",
    "<a href=\"javascript:alert(6)\">click</a> & &amp; <b>bold</b>",
    "<style>body{display:none}</style><!--",
    "]]><![CDATA[<script>alert(8)</script>",
];

/// The preset with an attack in every text field; returns the scenario and every text put
/// in it.
fn hostile() -> (String, Vec<String>) {
    let mut doc: Value = serde_json::from_str(PRESET).unwrap();
    let mut texts = Vec::new();
    let mut next = {
        let mut k = 0;
        move |field: &str| {
            let t = format!("{field} {}", ATTACKS[k % ATTACKS.len()]);
            k += 1;
            t
        }
    };
    let name = next("scenario");
    let description = next("description");
    doc["name"] = json!(name);
    doc["description"] = json!(description);
    texts.push(name);
    texts.push(description);
    let shares = doc["shares"].as_array_mut().unwrap();
    let mut renamed = Vec::new();
    for (i, share) in shares.iter_mut().enumerate() {
        let old = share["name"].as_str().unwrap().to_string();
        let new = format!("s{i} {}", ATTACKS[(i + 3) % ATTACKS.len()]);
        share["name"] = json!(new);
        let mut agreement = serde_json::Map::new();
        for field in ["owner", "rationale", "interruption_contract", "review_by"] {
            let t = next(field);
            agreement.insert(field.into(), json!(t));
            texts.push(t);
        }
        share["agreement"] = Value::Object(agreement);
        texts.push(new.clone());
        renamed.push((old, new));
    }
    for w in doc["workloads"].as_array_mut().unwrap() {
        let old = w["share"].as_str().unwrap().to_string();
        let (_, new) = renamed.iter().find(|(o, _)| *o == old).unwrap();
        w["share"] = json!(new);
    }
    (serde_json::to_string_pretty(&doc).unwrap(), texts)
}

/// Every tag of `html` (the text between `<` and `>`): escaped text holds no `<`, so these
/// are the document's own tags.
fn tags(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let after = &rest[start + 1..];
        let end = after.find('>').expect("every tag is closed");
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

/// A tag's name and its attributes' names (quoted values left out).
fn parse_tag(tag: &str) -> (String, Vec<String>) {
    let mut unquoted = String::new();
    let mut in_quote = false;
    for c in tag.chars() {
        if c == '"' {
            in_quote = !in_quote;
        } else if !in_quote {
            unquoted.push(c);
        }
    }
    let mut words = unquoted.split_whitespace();
    let name = words
        .next()
        .unwrap_or("")
        .trim_start_matches('/')
        .to_ascii_lowercase();
    let attrs = words
        .filter_map(|w| w.split('=').next())
        .map(str::to_ascii_lowercase)
        .collect();
    (name, attrs)
}

#[test]
fn markup_in_every_text_field_reaches_the_report_only_escaped() {
    let (scenario, texts) = hostile();
    quotalab_engine::load(&scenario).expect("the hostile scenario is valid");
    let html = quotalab_report::report(&scenario).expect("a report");

    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "a script tag in the report");
    for t in &texts {
        assert!(!html.contains(t.as_str()), "unescaped in the report: {t}");
        assert!(
            html.contains(&escape(t)),
            "not in the report as escaped text: {t}"
        );
    }
    let allowed = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "header",
        "main",
        "footer",
        "section",
        "article",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "p",
        "div",
        "span",
        "strong",
        "details",
        "summary",
        "pre",
        "ul",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "figure",
        "figcaption", // the charts, as plotters' SVG backend writes them
        "svg",
        "rect",
        "polyline",
        "polygon",
        "line",
        "circle",
        "text",
        "path",
    ];
    for tag in tags(&html) {
        let (name, attrs) = parse_tag(tag);
        assert!(allowed.contains(&name.as_str()), "tag <{tag}>");
        for a in attrs {
            assert!(
                !a.starts_with("on") && !["src", "href", "srcdoc", "action"].contains(&a.as_str()),
                "attribute {a} in <{tag}>"
            );
        }
    }
}

#[test]
fn the_report_loads_nothing_and_runs_nothing() {
    let html = quotalab_report::report(PRESET).unwrap();
    let lower = html.to_ascii_lowercase();
    for banned in [
        "<script", "<link", "<img", "<iframe", "url(", "@import", "href=", "src=",
    ] {
        assert!(!lower.contains(banned), "{banned} in the report");
    }
    // Every chart is inline SVG.
    assert!(
        html.matches("<svg").count() >= 5,
        "the charts are inline SVG"
    );
}

#[test]
fn the_same_scenario_gives_the_same_bytes() {
    let (scenario, _) = hostile();
    let a = quotalab_report::report(&scenario).unwrap();
    let b = quotalab_report::report(&scenario).unwrap();
    assert_eq!(a, b);
}

#[test]
fn a_bad_scenario_gives_its_problems() {
    let problems = quotalab_report::report(r#"{"shares": []}"#).unwrap_err();
    assert!(!problems.is_empty());
}
