//! Chart PNG exports in headless Chromium: a chart is drawn again by its
//! own code at twice its page size, under its title, over a legend of its shares.
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p quotalab-app --test browser exports::`

use crate::common::{near, pixels, settle, sleep_ms};
use std::sync::Arc;

use leptos::{mount::mount_to, prelude::*};
use quotalab_app::charts::export::{self, LegendItem, EXPORT_SCALE};
use quotalab_app::charts::{share_colour, AllocationChart, CompletionChart};
use quotalab_app::io::files::{self, ChartCanvas};
use quotalab_engine::digest::{Digest, DigestLimits};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};

const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

fn aws() -> Arc<Digest> {
    Arc::new(
        quotalab_engine::run_digest(AWS, DigestLimits::default()).expect("the walkthrough runs"),
    )
}

/// Mounts `f` in a 900 px wide `<div>`; removed on drop.
struct Mounted(HtmlElement, #[allow(dead_code)] Box<dyn std::any::Any>);

impl Drop for Mounted {
    fn drop(&mut self) {
        self.0.remove();
    }
}

fn mount<F, N>(f: F) -> Mounted
where
    F: FnOnce() -> N + 'static,
    N: IntoView + 'static,
{
    let div: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    div.set_attribute("style", "width: 900px").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    crate::common::use_local_engine();
    let handle = mount_to(div.clone(), f);
    Mounted(div, Box::new(handle))
}

fn canvas(root: &HtmlElement, selector: &str) -> HtmlCanvasElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into()
}

/// The pixels (RGBA) of rows `y0..y1` of `c`.
fn band(c: &HtmlCanvasElement, y0: u32, y1: u32) -> Vec<u8> {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().unchecked_into();
    ctx.get_image_data(0.0, f64::from(y0), f64::from(c.width()), f64::from(y1 - y0))
        .unwrap()
        .data()
        .to_vec()
}

/// The width and height of a PNG data URL, from its IHDR chunk.
fn png_size(url: &str) -> (u32, u32) {
    let b64 = url
        .strip_prefix("data:image/png;base64,")
        .expect("a PNG data URL");
    let bytes: Vec<u8> = window()
        .atob(b64)
        .unwrap()
        .chars()
        .map(|c| c as u8)
        .collect();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[wasm_bindgen_test]
async fn a_chart_exports_at_twice_its_size_with_title_and_share_legend() {
    let d = aws();
    let digest = Signal::derive({
        let d = d.clone();
        move || d.clone()
    });
    let m = mount(move || {
        view! {
            <section class="card">
                <h2>"Completion time"</h2>
                <CompletionChart digest=digest />
            </section>
        }
    });
    settle().await;
    sleep_ms(50).await;
    let page = canvas(&m.0, "[data-testid=chart-completion] canvas");
    let css = page.get_bounding_client_rect();
    let page_pixels = pixels(&page);
    let (page_w, page_h) = (page.width(), page.height());

    let legend: Vec<LegendItem> = d
        .shares
        .iter()
        .enumerate()
        .map(|(i, s)| LegendItem {
            name: s.name.clone(),
            colour: share_colour(i),
        })
        .collect();
    let image = export::chart_image(&page, "Completion time", &d.name, &legend).unwrap();
    let chart_h = (css.height() * EXPORT_SCALE).round() as u32;
    assert_eq!(
        f64::from(image.width()),
        (css.width() * EXPORT_SCALE).round(),
        "twice the page width"
    );
    // A title band above the chart and a legend band below it.
    assert!(
        image.height() >= chart_h + 2 * 40,
        "{} px high for a {chart_h} px chart",
        image.height()
    );
    // The legend: a swatch of each share's colour below the chart.
    let legend_band = band(&image, image.height() - 60, image.height());
    for (i, s) in d.shares.iter().enumerate() {
        let n = near(&legend_band, palette_rgb(i));
        assert!(n >= 400, "{}: {n} legend pixels of its colour", s.name);
    }
    // The title: dark text at the top, on white.
    let title_band = band(&image, 0, 60);
    assert!(
        near(&title_band, (0x37, 0x41, 0x51)) > 200,
        "title text is drawn"
    );
    // The chart itself is in the middle, in the shares' colours.
    let chart_band = band(&image, 80, 80 + chart_h - 40);
    assert!(near(&chart_band, palette_rgb(0)) > 500);
    // The page's canvas is untouched.
    assert_eq!((page.width(), page.height()), (page_w, page_h));
    assert_eq!(pixels(&page), page_pixels);

    // Through the Files menu's path: a PNG of those dimensions.
    let chart = ChartCanvas {
        label: "completion".into(),
        file: "completion".into(),
    };
    let url = files::chart_png(&chart, &page, Some(&d), &d.name).unwrap();
    assert_eq!(png_size(&url), (image.width(), image.height()));
}

fn palette_rgb(i: usize) -> (u8, u8, u8) {
    quotalab_app::ui::palette::rgb(i)
}

#[wasm_bindgen_test]
async fn a_share_panel_exports_with_its_own_share_only() {
    let d = aws();
    let digest = Signal::derive({
        let d = d.clone();
        move || d.clone()
    });
    let m = mount(move || {
        view! {
            <section class="card">
                <h2>"Allocation vs consumption"</h2>
                <AllocationChart digest=digest />
            </section>
        }
    });
    settle().await;
    sleep_ms(50).await;
    let second = &d.shares[1].name;
    let page = canvas(
        &m.0,
        &format!("[data-testid=chart-allocation] [data-share=\"{second}\"] canvas"),
    );
    let chart = ChartCanvas {
        label: format!("allocation: {second}"),
        file: "allocation-x".into(),
    };
    let url = files::chart_png(&chart, &page, Some(&d), &d.name).unwrap();
    let (w, h) = png_size(&url);
    let css = page.get_bounding_client_rect();
    assert_eq!(f64::from(w), (css.width() * EXPORT_SCALE).round());
    assert!(f64::from(h) > css.height() * EXPORT_SCALE + 80.0);
    // Its legend band holds that share's swatch and no other share's.
    let img = files::chart_export(&chart, &page, Some(&d), &d.name).unwrap();
    assert_eq!((img.width(), img.height()), (w, h));
    let legend_band = band(&img, h - 60, h);
    assert!(near(&legend_band, palette_rgb(1)) >= 400);
    assert_eq!(near(&legend_band, palette_rgb(0)), 0);
    assert_eq!(near(&legend_band, palette_rgb(2)), 0);
}
