import { describe, expect, it } from 'vitest';
import { detectLogoType } from './logo-file';

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

  it('refuses text, HTML and truncated signatures', () => {
    expect(detectLogoType(Buffer.from('hello'))).toBeNull();
    expect(detectLogoType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
    expect(detectLogoType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(detectLogoType(Buffer.alloc(0))).toBeNull();
  });
});
