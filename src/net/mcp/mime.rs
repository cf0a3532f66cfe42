//! What a skill file is served as: its `mimeType` (by extension, `text/markdown` for Markdown)
//! and whether `resources/read` sends it as `text` or as a base64 `blob`.

/// The `mimeType` of the file at `path`: by its extension, else `text/plain` for text and
/// `application/octet-stream` for other bytes.
pub fn mime_type(path: &str, is_text: bool) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    let known = match ext.as_str() {
        "md" | "markdown" | "mdx" => "text/markdown",
        "txt" | "text" => "text/plain",
        "py" => "text/x-python",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" | "mts" | "cts" | "tsx" => "text/x-typescript",
        "sh" | "bash" => "text/x-shellscript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "xml" => "application/xml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "wasm" => "application/wasm",
        _ => "",
    };
    match known {
        "" if is_text => "text/plain",
        "" => "application/octet-stream",
        m => m,
    }
}

/// Whether `bytes` go out as `text`: valid UTF-8 without a NUL byte (so the text's UTF-8 is
/// exactly the bytes the digest covers). Anything else is a `blob`.
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_by_extension_then_content() {
        assert_eq!(mime_type("SKILL.md", true), "text/markdown");
        assert_eq!(mime_type("scripts/extract.PY", true), "text/x-python");
        assert_eq!(mime_type("assets/logo.png", false), "image/png");
        assert_eq!(mime_type("LICENSE", true), "text/plain");
        assert_eq!(mime_type("data.bin", false), "application/octet-stream");
        assert!(is_text("é\r\n".as_bytes()));
        assert!(!is_text(b"a\0b"));
        assert!(!is_text(b"\xff\xfe"));
    }
}
