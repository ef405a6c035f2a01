//! Fuzzes the stdio line layer: the bytes a client sends, read by [`LineReader`] with a small line limit (every
//! line's JSON or its parse error), then served to [`LineTransport`] as an rmcp transport reads them (the JSON-RPC
//! validation: messages handed on, every other line answered). Nothing panics, every answer is one line of JSON-RPC
//! error, and the reading ends at the end of the input.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ranvier::mcp::rmcp::RoleServer;
use ranvier::mcp::rmcp::transport::Transport;
use ranvier::mcp::stdio::{Line, LineReader, LineTransport};
use serde_json::Value;
use tokio::io::AsyncReadExt;

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        // the reader alone, with a limit some lines pass
        let mut lines = LineReader::new(data).max_line_bytes(64);
        let mut read = 0;
        while let Some(line) = lines.next_line().await {
            read += 1;
            assert!(read <= data.len() + 1, "more lines than bytes");
            match line {
                Line::Read(bytes) => assert!(bytes.len() <= 64),
                Line::TooLong { bytes, limit } => assert!(bytes > limit),
            }
            if let Err(error) = line.json() {
                let response: Value =
                    serde_json::from_str(&error.response()).expect("a JSON response");
                assert_eq!(response["error"]["code"], -32700);
            }
        }

        // the transport: what it hands to rmcp, and what it answers (read as it is written)
        let (write, mut answers) = tokio::io::duplex(64 * 1024);
        let mut transport = LineTransport::new(data, write).max_line_bytes(256);
        let written = transport.written();
        let serve = async {
            let mut messages = 0;
            while let Some(_message) = Transport::<RoleServer>::receive(&mut transport).await {
                messages += 1;
                assert!(messages <= data.len(), "more messages than bytes");
            }
            Transport::<RoleServer>::close(&mut transport)
                .await
                .expect("closes");
            drop(transport);
            written.wait().await;
        };
        let mut out = Vec::new();
        let read = answers.read_to_end(&mut out);
        let ((), read) = tokio::join!(serve, read);
        read.expect("the answers");
        for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let answer: Value = serde_json::from_slice(line).expect("each answer is JSON");
            assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
            let code = answer["error"]["code"].as_i64().expect("an error answer");
            assert!(code == -32700 || code == -32600, "{answer}");
        }
    });
});
