//! The suite's seeded PRNG: `sfc32` seeded by four outputs of `xmur3a(seed)` (milomg's `pseudoRandom`), so the
//! dynamic graphs are the same graphs the JavaScript suite builds and its expected sums and counts hold.

/// `xmur3a`: a MurmurHash3-style seed generator over the UTF-16 code units of `seed`.
pub struct Xmur3a(u32);

impl Xmur3a {
    /// Hashes `seed`.
    pub fn new(seed: &str) -> Self {
        let mut h: u32 = 2_166_136_261;
        let mut len = 0u32;
        for unit in seed.encode_utf16() {
            let mut k = u32::from(unit).wrapping_mul(3_432_918_353);
            k = k.rotate_left(15);
            h ^= k.wrapping_mul(461_845_907);
            h = h.rotate_left(13);
            h = h.wrapping_mul(5).wrapping_add(3_864_292_196);
            len += 1;
        }
        Xmur3a(h ^ len)
    }

    /// The next 32-bit seed.
    pub fn next_u32(&mut self) -> u32 {
        let mut h = self.0;
        h ^= h >> 16;
        h = h.wrapping_mul(2_246_822_507);
        h ^= h >> 13;
        h = h.wrapping_mul(3_266_489_909);
        h ^= h >> 16;
        self.0 = h;
        h
    }
}

/// `sfc32` (from PractRand), returning floats in `[0, 1)` exactly as the JavaScript version does.
pub struct Sfc32 {
    a: u32,
    b: u32,
    c: u32,
    d: u32,
}

impl Sfc32 {
    /// The suite's generator: `sfc32` seeded by `xmur3a(seed)`.
    pub fn from_seed(seed: &str) -> Self {
        let mut hash = Xmur3a::new(seed);
        Sfc32 {
            a: hash.next_u32(),
            b: hash.next_u32(),
            c: hash.next_u32(),
            d: hash.next_u32(),
        }
    }

    /// The next number in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        let t = self.a.wrapping_add(self.b);
        self.a = self.b ^ (self.b >> 9);
        self.b = self.c.wrapping_add(self.c << 3);
        self.c = self.c.rotate_left(21);
        self.d = self.d.wrapping_add(1);
        let t = t.wrapping_add(self.d);
        self.c = self.c.wrapping_add(t);
        f64::from(t) / 4_294_967_296.0
    }
}
