//! The diagram on the page: the SVG `canvas` (rows on screen, zoom,
//! picking a request), its playback `controls`, the `caption_box` under
//! them and the guided `tour` panel and card; `more` shows the rest of
//! text a short screen cuts.
//!
//! Draws what `view::diagram` and `view::words::captions` compute; moves
//! the cursor only through the `Session`.

pub mod canvas;
pub mod caption_box;
pub mod controls;
pub mod more;
pub mod tour;
