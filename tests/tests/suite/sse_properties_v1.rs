//! Properties of `a2a_protocol::sse`: what the encoder writes, cut into chunks anywhere and with any of
//! the three line ends, decodes to the same events; any bytes, in any chunks, decode without a panic
//! and exactly as when fed at once; a stream cut inside an event and an event over the size limit give
//! their typed errors; and the HTTP+JSON typed layer gives back every `StreamResponse` it was given.
//!
//! Runs `PROPTEST_CASES` cases per property (proptest's default, 256, when unset).

use a2a_protocol::sse::{self, DecodeError, Decoder, Event, HttpJsonDecoder, StreamItem};
use a2a_types::v1::StreamResponse;
use proptest::prelude::*;

/// An event type or id: anything without a line break (nor NUL, for ids), sometimes empty.
fn field_value() -> impl Strategy<Value = String> {
    "[^\r\n\0]{0,12}"
}

/// Data of any shape: text with CR, LF and CRLF inside, leading spaces, colons, non-ASCII.
fn data() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            "[ -~]{0,10}",
            Just("\r\n".to_owned()),
            Just("\r".to_owned()),
            Just("\n".to_owned()),
            Just(" data: x".to_owned()),
            "\\PC{0,4}",
        ],
        0..6,
    )
    .prop_map(|pieces| pieces.concat())
}

fn event() -> impl Strategy<Value = Event> {
    (
        prop::option::of(field_value()),
        data(),
        prop::option::of(field_value()),
        prop::option::of(any::<u64>()),
    )
        .prop_map(|(event, data, id, retry)| Event {
            event,
            data,
            id,
            retry,
        })
}

/// What a decoder gives back for `event`: line ends in data become LF, and an empty event type is the
/// default type.
fn as_decoded(event: &Event) -> Event {
    Event {
        event: event.event.clone().filter(|event| !event.is_empty()),
        data: event.data.replace("\r\n", "\n").replace('\r', "\n"),
        ..event.clone()
    }
}

/// Cut points for `len` bytes, from random fractions.
fn cuts(len: usize, fractions: &[f64]) -> Vec<usize> {
    let mut cuts: Vec<usize> = fractions
        .iter()
        .map(|f| ((len as f64) * f) as usize)
        .collect();
    cuts.sort_unstable();
    cuts
}

fn feed_in_chunks(
    decoder: &mut Decoder,
    bytes: &[u8],
    cuts: &[usize],
) -> Vec<Result<Event, DecodeError>> {
    let mut out = Vec::new();
    let mut start = 0;
    for &cut in cuts.iter().chain([&bytes.len()]) {
        out.extend(decoder.feed(&bytes[start..cut]));
        start = cut;
    }
    out
}

/// Rewrites every LF the encoder wrote (each a line end, since data lines are split) as `\n`, `\r`
/// or `\r\n`, except that a CR is never followed by an LF line end, which would make one line end of
/// the two.
fn with_line_ends(encoded: &str, choices: &[u8]) -> String {
    let mut out = String::with_capacity(encoded.len() * 2);
    let mut previous_cr = false;
    for (index, line) in encoded.split_inclusive('\n').enumerate() {
        let text = line.strip_suffix('\n').unwrap_or(line);
        out.push_str(text);
        if !line.ends_with('\n') {
            continue;
        }
        let mut choice = choices[index % choices.len()] % 3;
        if previous_cr && text.is_empty() && choice == 0 {
            choice = 1;
        }
        out.push_str(["\n", "\r", "\r\n"][usize::from(choice)]);
        previous_cr = choice == 1;
    }
    out
}

proptest! {
    #[test]
    fn encoded_events_decode_the_same_however_chunked(
        events in prop::collection::vec(event(), 0..6),
        comments in prop::collection::vec(prop::option::of("[^\r\n]{0,8}"), 6),
        line_ends in prop::collection::vec(any::<u8>(), 1..16),
        bom in any::<bool>(),
        fractions in prop::collection::vec(0.0..1.0f64, 0..12),
    ) {
        let mut stream = if bom { "\u{feff}".to_owned() } else { String::new() };
        for (event, comment) in events.iter().zip(&comments) {
            if let Some(comment) = comment {
                stream.push_str(&sse::comment(comment));
            }
            stream.push_str(&event.encode().unwrap());
        }
        let stream = with_line_ends(&stream, &line_ends);
        let bytes = stream.as_bytes();

        let mut decoder = Decoder::new();
        let decoded = feed_in_chunks(&mut decoder, bytes, &cuts(bytes.len(), &fractions));
        prop_assert_eq!(decoder.finish(), Ok(()));
        let expected: Vec<Result<Event, DecodeError>> =
            events.iter().map(|event| Ok(as_decoded(event))).collect();
        prop_assert_eq!(decoded, expected, "stream {:?}", stream);
        let last_id = events.iter().rev().find_map(|event| event.id.as_deref()).unwrap_or("");
        prop_assert_eq!(decoder.last_event_id(), last_id);
        prop_assert_eq!(
            decoder.reconnection_time(),
            events.iter().rev().find_map(|event| event.retry)
        );
    }

    #[test]
    fn any_bytes_decode_without_panic_and_independently_of_chunking(
        bytes in prop::collection::vec(
            prop_oneof![
                4 => any::<u8>(),
                2 => prop::sample::select(b"\r\n: ".to_vec()),
                1 => prop::sample::select(b"dataeventidretry".to_vec()),
            ],
            0..400,
        ),
        fractions in prop::collection::vec(0.0..1.0f64, 0..20),
        limit in 0usize..64,
    ) {
        let mut whole = Decoder::with_max_event_size(limit);
        let at_once = whole.feed(&bytes);
        let mut chunked = Decoder::with_max_event_size(limit);
        let in_chunks = feed_in_chunks(&mut chunked, &bytes, &cuts(bytes.len(), &fractions));
        prop_assert_eq!(&in_chunks, &at_once);
        prop_assert_eq!(chunked.finish(), whole.finish());
        prop_assert_eq!(chunked.last_event_id(), whole.last_event_id());
        for event in at_once.into_iter().flatten() {
            prop_assert!(event.data.len() + event.event.map_or(0, |e| e.len()) <= limit);
        }
    }

    #[test]
    fn a_stream_cut_inside_its_last_event_is_truncated(
        events in prop::collection::vec(event(), 1..5),
        cut in 0.0..1.0f64,
    ) {
        let before: String = events[..events.len() - 1]
            .iter()
            .map(|event| event.encode().unwrap())
            .collect();
        let last = events.last().unwrap().encode().unwrap();
        // Anywhere after the last event's first byte and before its final line end.
        let cut = 1 + ((last.len() - 1) as f64 * cut) as usize;
        let cut = cut.min(last.len() - 1);
        let stream = [before.as_bytes(), &last.as_bytes()[..cut]].concat();
        let mut decoder = Decoder::new();
        let decoded = decoder.feed(&stream);
        prop_assert_eq!(decoded.len(), events.len() - 1, "the complete events come out");
        prop_assert_eq!(decoder.finish(), Err(DecodeError::Truncated));
    }

    #[test]
    fn an_event_over_the_limit_is_reported_and_the_others_survive(
        small in prop::collection::vec(("[a-z]{0,8}", "[ -~]{0,40}"), 0..6),
        big_at in 0usize..6,
        big_len in 300usize..2000,
        fractions in prop::collection::vec(0.0..1.0f64, 0..8),
    ) {
        const LIMIT: usize = 256;
        let mut stream = String::new();
        let mut expected = Vec::new();
        for (index, (event, data)) in small.iter().enumerate() {
            if index == big_at {
                stream.push_str(&Event::new("x".repeat(big_len)).encode().unwrap());
                expected.push(Err(DecodeError::EventTooLarge { limit: LIMIT }));
            }
            let event = Event::new(data.as_str()).event(event.as_str());
            stream.push_str(&event.encode().unwrap());
            expected.push(Ok(as_decoded(&event)));
        }
        if big_at >= small.len() {
            // Many short lines add up, too.
            stream.push_str(&Event::new("y\n".repeat(big_len / 2)).encode().unwrap());
            expected.push(Err(DecodeError::EventTooLarge { limit: LIMIT }));
        }
        let mut decoder = Decoder::with_max_event_size(LIMIT);
        let decoded = feed_in_chunks(&mut decoder, stream.as_bytes(), &cuts(stream.len(), &fractions));
        prop_assert_eq!(decoded, expected);
        prop_assert_eq!(decoder.finish(), Ok(()));
    }

    #[test]
    fn stream_responses_survive_the_http_json_stream(
        responses in prop::collection::vec(a2a_tests::strategies_v1::stream_response(), 0..4),
        fractions in prop::collection::vec(0.0..1.0f64, 0..10),
    ) {
        let stream: String = responses
            .iter()
            .map(|response| sse::encode_stream_response(response).unwrap())
            .collect();
        let mut decoder = HttpJsonDecoder::new();
        let mut decoded: Vec<StreamResponse> = Vec::new();
        let mut start = 0;
        for cut in cuts(stream.len(), &fractions).into_iter().chain([stream.len()]) {
            for item in decoder.feed(&stream.as_bytes()[start..cut]) {
                match item {
                    Ok(StreamItem::Data(response)) => decoded.push(response),
                    other => prop_assert!(false, "unexpected {:?}", other),
                }
            }
            start = cut;
        }
        prop_assert!(decoder.finish().is_ok());
        prop_assert_eq!(decoded, responses);
    }
}
