import { describe, expect, it } from 'vitest';
import { detectLogoType, isRefusedSvg } from './logo-file';

const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);

describe('detectLogoType', () => {
  it('recognises PNG, JPEG, GIF and WebP by their signatures', () => {
    expect(detectLogoType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))?.mime).toBe('image/png');
    expect(detectLogoType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]))?.extension).toBe('jpg');
    expect(detectLogoType(Buffer.from('GIF89a....'))?.mime).toBe('image/gif');
    expect(detectLogoType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 '))?.mime).toBe('image/webp');
  });

  it('accepts a plain SVG, with an XML declaration, comment or doctype before the root', () => {
    expect(detectLogoType(svg('<circle r="4" fill="#fff"/>'))?.mime).toBe('image/svg+xml');
    expect(detectLogoType(Buffer.from('\uFEFF<?xml version="1.0"?><!-- logo --><!DOCTYPE svg><svg width="1"></svg>'))?.mime).toBe('image/svg+xml');
    expect(detectLogoType(svg('<use href="#shape"/><image href="data:image/png;base64,AAAA"/>'))?.mime).toBe('image/svg+xml');
  });

  it('refuses SVGs that could run or load anything', () => {
    for (const body of [
      '<script>alert(1)</script>',
      '<rect onclick="alert(1)"/>',
      '<a href="javascript:alert(1)"><text>x</text></a>',
      '<foreignObject><div>x</div></foreignObject>',
      '<image href="https://tracker.example/p.png"/>',
      '<image xlink:href="http://tracker.example/p.png"/>',
      '<iframe src="x"/>',
    ]) {
      expect(detectLogoType(svg(body)), body).toBeNull();
    }
    expect(detectLogoType(Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>'))).toBeNull();
  });

  // Regression: an animation could set a link to javascript: (hidden behind a character reference), and a style sheet
  // could load from anywhere, because only the href attribute itself was checked (decision 005).
  it('refuses SVGs that animate a link, load styles from elsewhere or hide text behind character references', () => {
    for (const body of [
      '<a><animate attributeName="href" values="javascript&#58;alert(1)"/><text>x</text></a>',
      '<a><set attributeName="xlink:href" to="https://tracker.example/"/><text>x</text></a>',
      "<a><animate values='x' attributeName='href'/></a>",
      '<style>@import url(//tracker.example/x.css);</style>',
      '<style>rect { fill: red }</style>',
      '<rect style="fill: url(https://tracker.example/p.svg#g)"/>',
      '<rect fill="url(//tracker.example/p.svg#g)"/>',
      '<rect style="background: u\\72l(//tracker.example/p.png)"/>',
      '<rect style="@import \'//tracker.example/x.css\'"/>',
      '<text x="&#49;">x</text>',
      "<rect fill='&#x72;ed'/>",
    ]) {
      expect(detectLogoType(svg(body)), body).toBeNull();
      expect(isRefusedSvg(svg(body)), body).toBe(true);
    }
  });

  // Regression (review s28): a namespace prefix hid a script from the filter (`<x:script xmlns:x="…svg">`, `<h:script
  // xmlns:h="…xhtml">`) while `<script` was refused; decision 005 refuses scripts outright.
  it('refuses namespace-prefixed scripts and other refused elements, and any binding of the XHTML namespace', () => {
    for (const body of [
      '<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>',
      '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>',
      '<svg:script xmlns:svg="http://www.w3.org/2000/svg" href="#x"/>',
      '<x:foreignObject xmlns:x="http://www.w3.org/2000/svg"><p>x</p></x:foreignObject>',
      '<x:iframe xmlns:x="urn:x" src="x"/>',
      '<x:embed xmlns:x="urn:x" src="x"/>',
      '<x:object xmlns:x="urn:x" data="x"/>',
      '<x:style xmlns:x="http://www.w3.org/2000/svg">rect { fill: red }</x:style>',
      '<a><x:animate xmlns:x="http://www.w3.org/2000/svg" attributeName="href" values="https://tracker.example/"/></a>',
      '<a><x:set xmlns:x="http://www.w3.org/2000/svg" attributeName="l:href" to="https://tracker.example/"/></a>',
      '<rect x:onclick="alert(1)" xmlns:x="urn:x"/>',
      '<g xmlns:h="http://www.w3.org/1999/xhtml"><h:p>x</h:p></g>',
      '<g xmlns="http://www.w3.org/1999/xhtml"><p>x</p></g>',
      "<g xmlns:h = 'http://www.w3.org/1999/xhtml'/>",
    ]) {
      expect(detectLogoType(svg(body)), body).toBeNull();
      expect(isRefusedSvg(svg(body)), body).toBe(true);
    }
    expect(isRefusedSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"></svg>'))).toBe(true);
  });

  it('keeps the plain SVG a design tool exports: gradients by #id, data images, the five XML entities', () => {
    for (const body of [
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect fill="url(#g)" style="fill: url( \'#g\' )"/>',
      '<image href="data:image/png;base64,AAAA"/><rect fill="url(data:image/png;base64,AAAA)"/>',
      '<text font-family="Fish &amp; Chips">A &#38; B</text>',
      '<circle r="4"><animate attributeName="r" values="4;6;4" dur="2s" repeatCount="indefinite"/></circle>',
      '<svg:g xmlns:svg="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><svg:use xlink:href="#shape"/></svg:g>',
      '<text>scripts and styles</text><g id="description"/>',
    ]) {
      expect(detectLogoType(svg(body))?.mime, body).toBe('image/svg+xml');
      expect(isRefusedSvg(svg(body)), body).toBe(false);
    }
  });

  it('tells a refused SVG from a file that is no SVG at all', () => {
    expect(isRefusedSvg(svg('<script>alert(1)</script>'))).toBe(true);
    expect(isRefusedSvg(Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>'))).toBe(true);
    expect(isRefusedSvg(Buffer.from('hello'))).toBe(false);
    expect(isRefusedSvg(Buffer.from('<html><svg></svg></html>'))).toBe(false);
    expect(isRefusedSvg(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(false);
  });

  it('refuses text, HTML and truncated signatures', () => {
    expect(detectLogoType(Buffer.from('hello'))).toBeNull();
    expect(detectLogoType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
    expect(detectLogoType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(detectLogoType(Buffer.alloc(0))).toBeNull();
  });
});
