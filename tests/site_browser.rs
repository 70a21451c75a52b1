//! The pattern catalogue (`mkpat html`) in a real browser.
//!
//! The catalogue is JavaScript and SVG that only a browser runs, so it is
//! tested in one: headless Chromium, driven over WebDriver by a local
//! `chromedriver` (Debian's `chromium` and `chromium-driver` packages, which
//! `tests/run.sh` installs when missing). The site is generated into a
//! temporary folder and opened from `file://`, as a user would open it, so
//! these tests also prove it needs neither a server nor the network.
//!
//! Without Chromium these tests FAIL, saying how to install it: a catalogue
//! that was never opened is not tested.
//!
//! They check that the index has one card per pattern, that filters narrow
//! it to exactly the patterns they should, that a pattern's page draws every
//! transformation the matcher tries with its masks, that the next/prior keys
//! and buttons step through the patterns, that hit counts from `katachi
//! match --stats-out` mark the never-matching patterns, and that a
//! screenshot is not blank. With GNU Go 2.6's 1153 patterns (under
//! `../shared`, read here, never copied), the time until the index's cards
//! are present is measured and printed, not asserted.
#![cfg(feature = "compiler")]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use mkpat::hits::Hits;
use mkpat::json::{JsonDatabase, Region};
use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A ceiling for waiting on the page, far above what any step takes; it
/// turns a hang into a failure with a message, it does not time anything.
const PATIENCE: Duration = Duration::from_secs(60);

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A running chromedriver, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_driver() -> Driver {
    for bin in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(bin).is_file(),
            "{bin} is missing: the catalogue's browser tests need headless Chromium. \
             Install it with `apt-get update && apt-get install -y chromium chromium-driver` \
             (tests/run.sh does this when it is missing)"
        );
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free local port")
        .port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    Driver { child, port }
}

async fn browser(driver: &Driver, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
    });
    let caps = caps.as_object().unwrap().clone();
    let url = format!("http://127.0.0.1:{}", driver.port);
    let start = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return c,
            Err(e) if start.elapsed() < PATIENCE => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("cannot start Chromium through chromedriver at {url}: {e}"),
        }
    }
}

async fn eval(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .unwrap_or_else(|e| panic!("evaluating `{expr}`: {e}"))
}

async fn count(c: &Client, css: &str) -> u64 {
    eval(c, &format!("document.querySelectorAll({css:?}).length"))
        .await
        .as_u64()
        .unwrap()
}

/// Waits until `expr` is true in the page.
async fn wait_for(c: &Client, expr: &str) {
    let start = Instant::now();
    while eval(c, expr).await != Value::Bool(true) {
        assert!(start.elapsed() < PATIENCE, "the page never got to `{expr}`");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sets a filter control's value as a user would, firing its `input` event.
async fn set(c: &Client, id: &str, value: &str) {
    c.execute(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; \
         e.dispatchEvent(new Event('input', { bubbles: true }));",
        vec![json!(id), json!(value)],
    )
    .await
    .expect("sets a filter");
}

async fn visible(c: &Client) -> u64 {
    count(c, ".card:not([hidden])").await
}

/// Takes a screenshot, saves it under the target folder, and checks that it
/// is not blank: the decoded PNG has many colours.
async fn screenshot(c: &Client, name: &str) -> PathBuf {
    let bytes = c.screenshot().await.expect("a screenshot");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.png"));
    std::fs::write(&path, &bytes).expect("save the screenshot");
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let px = info.color_type.samples() * usize::from(info.bit_depth as u8).div_ceil(8);
    let mut colours: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(
        colours.len() > 1,
        "{name}: the screenshot is blank ({} colour)",
        colours.len()
    );
    eprintln!(
        "screenshot {} ({}x{}, {} colours)",
        path.display(),
        info.width,
        info.height,
        colours.len()
    );
    path
}

/// Compiles a database, runs `katachi match --stats-out` over positions,
/// and writes the catalogue with those hit counts into `dir`.
fn make_site(db: &Path, positions: &Path, builtin: bool, dir: &Path) -> (JsonDatabase, Hits) {
    let bytes = std::fs::read(db).expect("read the database");
    let opts = mkpat::Options {
        lenient: true,
        ..Default::default()
    };
    let c = mkpat::compile(&db.display().to_string(), &bytes, &opts);
    assert!(c.is_ok(), "{}", c.render());
    let j = mkpat::json::export_compiled(&c).unwrap();
    let tsv = dir.join("hits.tsv");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_katachi"));
    cmd.arg("match");
    if !builtin {
        cmd.arg("--db").arg(db);
    }
    let out = cmd
        .arg("--stats-out")
        .arg(&tsv)
        .arg(positions)
        .output()
        .expect("katachi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits = Hits::parse_tsv(&std::fs::read_to_string(&tsv).unwrap()).unwrap();
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    for f in mkpat::html::site(&j, Some(&hits)) {
        std::fs::write(site.join(f.path), f.text).unwrap();
    }
    (j, hits)
}

fn index_url(dir: &Path) -> String {
    format!("file://{}/site/index.html", dir.display())
}

fn never(hits: &Hits) -> usize {
    hits.counts.iter().filter(|(_, c)| c.matches == 0).count()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_projects_catalogue_works_in_chromium() {
    let driver = start_driver();
    let tmp = tempfile::tempdir().unwrap();
    let (db, hits) = make_site(
        &root("patterns/patterns.db"),
        &root("tests/data/positions/sample.txt"),
        true,
        tmp.path(),
    );
    let n = db.patterns.len();
    assert_eq!(n, 143);
    let profile = tmp.path().join("profile");
    let c = browser(&driver, &profile).await;
    c.goto(&index_url(tmp.path()))
        .await
        .expect("opens the index");
    wait_for(&c, "document.body.dataset.ready === '1'").await;

    // One card per pattern, in table order.
    assert_eq!(count(&c, "#cards .card").await, 143);
    assert_eq!(visible(&c).await, 143);
    assert_eq!(
        eval(&c, "document.getElementById('count').textContent").await,
        "143 of 143 patterns"
    );
    let first = eval(
        &c,
        "document.querySelector('.card .name').firstChild.textContent.trim()",
    )
    .await;
    assert_eq!(first, db.patterns[0].name.as_str());
    // Boards are drawn for the cards on screen.
    wait_for(
        &c,
        "document.querySelectorAll('.card .board svg').length > 0",
    )
    .await;
    screenshot(&c, "catalogue-project-index").await;

    // The name filter, typed as a user types.
    let by_name = db.patterns.iter().filter(|p| p.name.contains('1')).count() as u64;
    c.find(Locator::Css("#f-name"))
        .await
        .unwrap()
        .send_keys("1")
        .await
        .unwrap();
    wait_for(
        &c,
        &format!("document.querySelectorAll('.card:not([hidden])').length === {by_name}"),
    )
    .await;
    assert!(by_name > 0 && by_name < 143);
    set(&c, "f-name", "").await;
    assert_eq!(visible(&c).await, 143);

    // Region, class, weight range and text filters narrow to exactly the
    // patterns they name.
    for region in [Region::Corner, Region::Edge, Region::Centre] {
        let want = db.patterns.iter().filter(|p| p.region == region).count() as u64;
        let name = serde_json::to_value(region).unwrap();
        set(&c, "f-region", name.as_str().unwrap()).await;
        assert_eq!(visible(&c).await, want, "{region:?}");
    }
    set(&c, "f-region", "").await;
    let want = db.patterns.iter().filter(|p| p.class.contains('O')).count() as u64;
    set(&c, "f-class", "O").await;
    assert_eq!(visible(&c).await, want);
    assert!(want > 0 && want < 143);
    set(&c, "f-class", "").await;
    let want = db
        .patterns
        .iter()
        .filter(|p| (50..=80).contains(&p.weights.weight))
        .count() as u64;
    set(&c, "f-wmin", "50").await;
    set(&c, "f-wmax", "80").await;
    assert_eq!(visible(&c).await, want);
    set(&c, "f-wmin", "").await;
    set(&c, "f-wmax", "").await;
    let helper = db
        .patterns
        .iter()
        .find_map(|p| p.helper.clone())
        .expect("a helper");
    let want = db
        .patterns
        .iter()
        .filter(|p| {
            [
                p.name.as_str(),
                &p.description,
                p.helper.as_deref().unwrap_or(""),
            ]
            .iter()
            .any(|t| t.to_lowercase().contains(&helper.to_lowercase()))
        })
        .count() as u64;
    set(&c, "f-text", &helper).await;
    assert_eq!(visible(&c).await, want);
    set(&c, "f-text", "").await;

    // Hit counts: the never-matching patterns stand out and filter.
    let dead = never(&hits) as u64;
    assert!(
        dead > 0 && dead < 143,
        "sample.txt leaves some patterns unmatched"
    );
    assert_eq!(count(&c, ".card.never").await, dead);
    set(&c, "f-hits", "never").await;
    assert_eq!(visible(&c).await, dead);
    set(&c, "f-hits", "").await;
    assert_eq!(visible(&c).await, 143);

    // A pattern's page: every transformation, with its board and masks.
    let (k, p) = db
        .patterns
        .iter()
        .enumerate()
        .max_by_key(|(_, p)| p.transformations.len())
        .unwrap();
    c.find(Locator::Css(&format!("#c{k}")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let t = p.transformations.len();
    wait_for(
        &c,
        &format!("document.querySelectorAll('#detail .trans').length === {t}"),
    )
    .await;
    assert_eq!(count(&c, "#detail .trans svg.go").await, t as u64);
    assert_eq!(count(&c, "#detail .trans table.mask").await, 3 * t as u64);
    let trans = eval(
        &c,
        "[...document.querySelectorAll('#detail .trans')].map(e => +e.dataset.trans)",
    )
    .await;
    let want: Vec<u8> = p.transformations.iter().map(|t| t.trans).collect();
    assert_eq!(trans, json!(want));
    let hex = eval(
        &c,
        "document.querySelector('#detail .trans .hex').textContent",
    )
    .await;
    assert!(
        hex.as_str()
            .unwrap()
            .contains(&format!("and_mask {:#010x}", p.transformations[0].and_mask)),
        "{hex}"
    );
    assert!(
        count(&c, "#index[hidden]").await == 1,
        "the index is hidden"
    );
    screenshot(&c, "catalogue-project-pattern").await;

    // Next and prior: keys and buttons step through the patterns.
    let hash = |i: usize| format!("#/p/{}", db.patterns[i % n].name);
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("j")
        .await
        .unwrap();
    wait_for(&c, &format!("location.hash === {:?}", hash(k + 1))).await;
    let h2 = format!("Pattern {}", db.patterns[(k + 1) % n].name);
    wait_for(
        &c,
        &format!("document.querySelector('#detail h2').firstChild.textContent.trim() === {h2:?}"),
    )
    .await;
    c.find(Locator::Css("#prior"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&c, &format!("location.hash === {:?}", hash(k))).await;
    c.find(Locator::Css("#next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&c, &format!("location.hash === {:?}", hash(k + 1))).await;
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("k")
        .await
        .unwrap();
    wait_for(&c, &format!("location.hash === {:?}", hash(k))).await;
    // Escape goes back to the index, all cards still there.
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{e00c}")
        .await
        .unwrap();
    wait_for(&c, "!document.getElementById('index').hidden").await;
    assert_eq!(visible(&c).await, 143);
    c.close().await.expect("closes the browser");
}

#[tokio::test(flavor = "multi_thread")]
async fn gnugo26_catalogue_of_1153_patterns_opens_quickly() {
    let dir = root("../shared/conformance/gnugo-2.6");
    if !dir.join("patterns.db").is_file() {
        eprintln!(
            "SKIPPED: {} is absent (it comes with ../shared, present in CI)",
            dir.display()
        );
        return;
    }
    let driver = start_driver();
    let tmp = tempfile::tempdir().unwrap();
    let (db, hits) = make_site(
        &dir.join("patterns.db"),
        &dir.join("positions_real.txt"),
        false,
        tmp.path(),
    );
    assert_eq!(db.patterns.len(), 1153);
    let profile = tmp.path().join("profile");
    let c = browser(&driver, &profile).await;
    // Warm the browser up on a blank page so that the measurement is the
    // catalogue's, not Chromium's start.
    c.goto("about:blank").await.unwrap();
    let start = Instant::now();
    c.goto(&index_url(tmp.path()))
        .await
        .expect("opens the index");
    wait_for(
        &c,
        "document.querySelectorAll('#cards .card').length === 1153",
    )
    .await;
    let elapsed = start.elapsed();
    let in_page = eval(&c, "window.KATACHI_READY_MS").await;
    eprintln!(
        "GNU Go 2.6 catalogue: 1153 cards present {:.0} ms after navigation \
         (the page's own script finished at {in_page} ms)",
        elapsed.as_secs_f64() * 1000.0
    );
    assert_eq!(visible(&c).await, 1153);
    screenshot(&c, "catalogue-gnugo26-index").await;

    // Filters over the large set.
    let want = db
        .patterns
        .iter()
        .filter(|p| p.name.starts_with("EB"))
        .count() as u64;
    let contains = db
        .patterns
        .iter()
        .filter(|p| p.name.to_lowercase().contains("eb"))
        .count() as u64;
    set(&c, "f-name", "eb").await;
    assert_eq!(visible(&c).await, contains);
    assert!(want > 0 && contains < 1153);
    set(&c, "f-name", "").await;
    let want = db
        .patterns
        .iter()
        .filter(|p| p.region == Region::Corner)
        .count() as u64;
    set(&c, "f-region", "corner").await;
    assert_eq!(visible(&c).await, want);
    set(&c, "f-region", "").await;

    // Hit counts over the 200 real-game positions.
    let dead = never(&hits) as u64;
    assert_eq!(count(&c, ".card.never").await, dead);
    eprintln!("GNU Go 2.6 over positions_real.txt: {dead} of 1153 patterns never matched");

    // A pattern with a constraint: its labels are drawn on its board.
    c.goto(&format!("{}#/p/EB1", index_url(tmp.path())))
        .await
        .unwrap();
    let eb1 = db.patterns.iter().find(|p| p.name == "EB1").unwrap();
    let t = eb1.transformations.len();
    wait_for(
        &c,
        &format!("document.querySelectorAll('#detail .trans svg.go').length === {t}"),
    )
    .await;
    assert_eq!(
        count(&c, "#detail .big text.lbl").await,
        1,
        "EB1's label `a`"
    );
    assert_eq!(
        eval(
            &c,
            "document.querySelector('#detail pre.constraint').textContent"
        )
        .await,
        "lib(a)>2"
    );
    c.set_window_size(1280, 1400).await.unwrap();
    screenshot(&c, "catalogue-gnugo26-EB1").await;
    c.close().await.expect("closes the browser");
}

/// GNU Go 3.8's `owl_attackpats.db` (397 patterns in the 3.x dialect):
/// its catalogue opens with every card, its hit counts from `katachi
/// match --db`, and a pattern's page shows its eight transformations and
/// its `;` constraint.
#[tokio::test(flavor = "multi_thread")]
async fn gnugo38_owl_catalogue_opens() {
    let dir = root("../shared/conformance");
    let db_path = dir.join("gnugo-3.8/owl_attackpats.db");
    if !db_path.is_file() {
        eprintln!(
            "SKIPPED: {} is absent (it comes with ../shared, present in CI)",
            db_path.display()
        );
        return;
    }
    let driver = start_driver();
    let tmp = tempfile::tempdir().unwrap();
    let (db, hits) = make_site(
        &db_path,
        &dir.join("gnugo-2.6/positions_real.txt"),
        false,
        tmp.path(),
    );
    assert_eq!(db.patterns.len(), 397);
    assert_eq!(db.dialect, "gnugo-3.8");
    let profile = tmp.path().join("profile");
    let c = browser(&driver, &profile).await;
    c.goto(&index_url(tmp.path()))
        .await
        .expect("opens the index");
    wait_for(
        &c,
        "document.querySelectorAll('#cards .card').length === 397",
    )
    .await;
    assert_eq!(visible(&c).await, 397);
    assert_eq!(count(&c, ".card.never").await, never(&hits) as u64);
    c.goto(&format!("{}#/p/A1", index_url(tmp.path())))
        .await
        .unwrap();
    wait_for(
        &c,
        "document.querySelectorAll('#detail .trans svg.go').length === 8",
    )
    .await;
    assert_eq!(
        eval(
            &c,
            "document.querySelector('#detail pre.constraint').textContent"
        )
        .await,
        " lib(A)<4"
    );
    screenshot(&c, "catalogue-gnugo38-owl-A1").await;
    c.close().await.expect("closes the browser");
}

/// A hexagonal database's catalogue draws hexagonal boards: cells as
/// hexagons in rows offset by half a cell, the sides as strokes, every
/// transformation (twelve for a pattern without symmetry) on its page.
#[tokio::test(flavor = "multi_thread")]
async fn a_hexagonal_catalogue_draws_hexagons() {
    let driver = start_driver();
    let tmp = tempfile::tempdir().unwrap();
    let path = root("mkpat/tests/data/ok/hexagon_edges.db");
    let c = mkpat::compile(
        &path.display().to_string(),
        &std::fs::read(&path).unwrap(),
        &mkpat::Options::default(),
    );
    assert!(c.is_ok(), "{}", c.render());
    let db = mkpat::json::export_compiled(&c).unwrap();
    assert_eq!(db.geometry, "hexagon");
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    for f in mkpat::html::site(&db, None) {
        std::fs::write(site.join(f.path), f.text).unwrap();
    }
    let c = browser(&driver, &tmp.path().join("profile")).await;
    c.goto(&index_url(tmp.path()))
        .await
        .expect("opens the index");
    wait_for(&c, "document.body.dataset.ready === '1'").await;
    assert_eq!(count(&c, "#cards .card").await, 3);
    wait_for(
        &c,
        "document.querySelectorAll('.card .board svg.hexagonal').length === 3",
    )
    .await;
    // Pattern 2 (the left corner): 9 cells, drawn as 9 hexagons in one
    // path, and its two sides as strokes.
    let cells = eval(
        &c,
        "document.querySelectorAll('.card .board svg')[1].querySelector('path.hexcell').getAttribute('d').split('Z').length - 1",
    )
    .await;
    assert_eq!(cells, json!(9));
    assert_eq!(
        count(&c, ".card:nth-child(2) .board svg path.edge").await,
        1
    );
    c.goto(&format!("{}#/p/2", index_url(tmp.path())))
        .await
        .unwrap();
    wait_for(
        &c,
        "document.querySelectorAll('#detail .trans svg.hexagonal').length === 12",
    )
    .await;
    let names = eval(
        &c,
        "[...document.querySelectorAll('#detail .trans h3')].map(e => e.textContent)",
    )
    .await;
    assert_eq!(names[1], json!("1: turn 60° clockwise"));
    let edges = eval(
        &c,
        "document.querySelector('#detail .trans .hex').textContent",
    )
    .await;
    assert!(
        edges
            .as_str()
            .unwrap()
            .contains("edges lower left, upper left"),
        "{edges}"
    );
    c.set_window_size(1280, 1400).await.unwrap();
    screenshot(&c, "catalogue-hexagon").await;
    c.close().await.expect("closes the browser");
}

/// Seed 000's viewer: the catalogue of the project's database with the
/// three shipped Go personalities steps player by player ("next player",
/// "prior player", `]` and `[`, wrapping at both ends) and pattern by
/// pattern, and every step shows the current player's weights as the
/// personality files make them (the JSON `mkpat json --personality`
/// exports, computed here in Rust, not in the page).
#[tokio::test(flavor = "multi_thread")]
async fn the_catalogue_steps_through_personalities_and_patterns() {
    let driver = start_driver();
    let tmp = tempfile::tempdir().unwrap();
    let path = root("patterns/patterns.db");
    let c = mkpat::compile(
        &path.display().to_string(),
        &std::fs::read(&path).unwrap(),
        &mkpat::Options::default(),
    );
    assert!(c.is_ok(), "{}", c.render());
    let tables = c.database.as_ref().unwrap();
    let db = mkpat::json::export_compiled(&c).unwrap();
    let names = ["go-builder", "go-fighter", "go-wild"];
    let pers: Vec<_> = names
        .iter()
        .map(|n| {
            let f = root(&format!("patterns/personalities/{n}.toml"));
            let p = mkpat::personality::json::read_for_database(
                &f.display().to_string(),
                &std::fs::read(&f).unwrap(),
                tables.dialect,
                &tables.patterns,
            )
            .unwrap_or_else(|r| panic!("{}", r.rendered));
            mkpat::personality::json::export(
                &p,
                &f.display().to_string(),
                "patterns/patterns.db",
                tables.dialect,
                &tables.patterns,
            )
        })
        .collect();
    let shown: Vec<&str> = pers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(shown, ["builder", "fighter", "wild"]);
    // Pattern `i`'s weight under personality `k`, as the page writes it.
    let weight = |k: usize, i: usize| -> String {
        let w = pers[k]
            .patterns
            .iter()
            .find(|w| w.name == db.patterns[i].name)
            .expect("every pattern has its weights");
        w.weights
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" / ")
    };
    // Two patterns in a row whose weights differ between builder and
    // fighter, so that each step shows something else.
    let i = (0..db.patterns.len() - 1)
        .find(|&i| weight(0, i) != weight(1, i) && weight(0, i + 1) != weight(1, i + 1))
        .expect("builder and fighter weigh some neighbouring patterns differently");
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    for f in mkpat::html::site_with(&db, None, &pers) {
        std::fs::write(site.join(f.path), f.text).unwrap();
    }
    let c = browser(&driver, &tmp.path().join("profile")).await;
    c.goto(&index_url(tmp.path()))
        .await
        .expect("opens the index");
    wait_for(&c, "document.body.dataset.ready === '1'").await;
    let bar =
        "document.querySelector('#players .players').textContent.replace(/\\s+/g, ' ').trim()";
    let card = |i: usize| format!("document.querySelector('#c{i} .pw').textContent");
    // The index: the current player and its weight on a card.
    let on_index = |k: usize| {
        let (bar, card) = (bar.to_string(), card(i));
        let want_bar = format!("◀ prior player {} ({} of 3) next player ▶", shown[k], k + 1);
        let want_card = format!("{} {}", shown[k], weight(k, i));
        let c = c.clone();
        async move {
            wait_for(&c, &format!("{bar} === {want_bar:?}")).await;
            assert_eq!(eval(&c, &card).await, json!(want_card));
        }
    };
    let press = |key: &'static str| {
        let c = c.clone();
        async move {
            c.find(Locator::Css("body"))
                .await
                .unwrap()
                .send_keys(key)
                .await
                .unwrap();
        }
    };
    let click = |css: String| {
        let c = c.clone();
        async move {
            c.find(Locator::Css(&css))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
        }
    };
    on_index(0).await;
    click("#players .next-player".into()).await;
    on_index(1).await;
    press("]").await;
    on_index(2).await;
    // Past the last player comes the first, before the first the last.
    click("#players .next-player".into()).await;
    on_index(0).await;
    click("#players .prior-player".into()).await;
    on_index(2).await;
    press("[").await;
    on_index(1).await;

    // A pattern's page: the weights under every personality, the
    // current player's row marked; the player stays as the pattern steps.
    let rows = "[...document.querySelectorAll('#detail table.personalities tr')].slice(1).map(r => [...r.cells].map(d => d.textContent).join(': '))";
    let current =
        "document.querySelector('#detail table.personalities tr.current').cells[0].textContent";
    let on_pattern = |k: usize, i: usize| {
        let title = format!("Pattern {}", db.patterns[i].name);
        let p = &db.patterns[i];
        let mut want = vec![format!("the database: {}", p.weights.weight)];
        want.extend((0..3).map(|k| format!("{}: {}", shown[k], weight(k, i))));
        let is_current = format!("{current} === {:?}", shown[k]);
        let c = c.clone();
        async move {
            wait_for(
                &c,
                &format!("document.querySelector('#detail h2') !== null && document.querySelector('#detail h2').firstChild.textContent.trim() === {title:?}"),
            )
            .await;
            wait_for(&c, &is_current).await;
            assert_eq!(eval(&c, rows).await, json!(want));
        }
    };
    click(format!("#c{i}")).await;
    on_pattern(1, i).await;
    press("j").await;
    on_pattern(1, i + 1).await;
    press("]").await;
    on_pattern(2, i + 1).await;
    click("#players .next-player".into()).await;
    on_pattern(0, i + 1).await;
    press("k").await;
    on_pattern(0, i).await;
    click("#players .prior-player".into()).await;
    on_pattern(2, i).await;
    c.close().await.expect("closes the browser");
}
