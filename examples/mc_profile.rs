use htmltok::extract::{extract, ExtractOptions};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = &args[0];
    let mut o = ExtractOptions::default().links(false).metadata(false);
    if mode == "mc" { o = o.main_content(true); }
    if mode == "off" { o = o.offsets(true).scripting(false); }
    let mut n = 0;
    for p in &args[1..] {
        let s = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
        n += extract(&s, &o).text.len();
    }
    println!("{n}");
}
