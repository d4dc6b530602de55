//! Interning: equal keys get one small index, so handles compare by
//! index. Types and attributes are interned this way.

use std::collections::HashMap;

pub(crate) struct Interner<K: std::hash::Hash + Eq + Clone> {
    pub(crate) items: Vec<K>,
    index: HashMap<K, u32>,
}

impl<K: std::hash::Hash + Eq + Clone> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Clone> Interner<K> {
    pub(crate) fn intern(&mut self, k: K) -> u32 {
        if let Some(&i) = self.index.get(&k) {
            return i;
        }
        let i = self.items.len() as u32;
        self.items.push(k.clone());
        self.index.insert(k, i);
        i
    }
}
