import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// The page's script (O6): what the data table does beyond reading, added to a page that is whole
/// without it, and doing nothing per row until asked (a page of 100,000 rows is ready when read).
/// A heading sorts its column on click or Enter as `--sort` does (W11): numbers by value (the
/// renderer's `data-v` where the text is not plain; text in a number column after them), text by
/// Unicode order of its NFC form, empty cells and placeholders (`data-v` empty) last, ties in the
/// input's order; under `--layout pages` every band in the same order, so rows stay in line;
/// again to reverse; `aria-sort` and a mark say which. A group's rows (its `<tbody>` and the
/// `class="c"` ones after it) are listed, in the input's order, at the table's first sort, and a
/// column's keys at its first sort; a sort moves the rows back into the same `<tbody>` elements,
/// as many in each as before, so stripes by position stay right. A row opens its sheet on click
/// or Enter (a dialog with every field whole, a cell holding JSON as an outline of disclosure
/// triangles); one row at a time is in the Tab order (the first at load, then the one last
/// opened or moved to), and the Up and Down arrows move between rows. "Select rows" adds a
/// checkbox column (only then: a cell more in every row is work on every row)
/// and a button copies the checked rows as CSV (RFC 4180) with their raw values, read back from
/// the page's marks (`raw`: `<br class="r">` CR LF, `<span data-c>` the control its escape
/// stands for, `<span class="lb">` the `↵` shown for a line break, left out as `text` leaves it);
/// a cell cut with `…` shows its whole text on hover; the scroll box says when rows slide under
/// the header (its shadow) and when it is scrolled right (the first column narrows to 25%). Text
/// from cells only ever reaches the page as text (`textContent`).
extension HTMLRenderer {
    static let script = #"""
        (()=>{"use strict";
        const D=document,tables=[...D.querySelectorAll("table.d")];
        D.documentElement.classList.add("js");
        const isData=tr=>!tr.classList.contains("g")&&!tr.classList.contains("t");
        const cells=tr=>[...tr.cells].filter(c=>!c.classList.contains("k"));
        const text=node=>{let s="";for(const n of node.childNodes)s+=n.nodeName==="BR"?"\n":n.nodeType===3?n.data:n.className==="lb"?"":text(n);return s};
        const raw=node=>{let s="";for(const n of node.childNodes)s+=n.nodeName==="BR"?(n.className==="r"?"\r\n":"\n"):n.nodeType===3?n.data:n.className==="lb"?"":n.dataset.c?String.fromCodePoint(parseInt(n.dataset.c,16)):raw(n);return s};
        const el=(tag,props)=>Object.assign(D.createElement(tag),props||{});
        const vis=s=>s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/g,c=>{const o=c.charCodeAt(0);
          return o===9?"\\t":o===13?"\\r":o===10?"\u21b5":o>=0x2000?"\\u"+o.toString(16).padStart(4,"0"):"\\x"+o.toString(16).padStart(2,"0")});
        const fix=u=>u>=0xe000?u-0x800:u>=0xd800?u+0x2000:u;
        const cmpText=(a,b)=>{const n=Math.min(a.length,b.length);for(let i=0;i<n;i++){const x=a.charCodeAt(i),y=b.charCodeAt(i);if(x!==y)return fix(x)-fix(y)}return a.length-b.length};
        const key=(c,numeric)=>{if(!c||c.classList.contains("n"))return null;const v=c.getAttribute("data-v");if(v==="")return null;
          const f=c.firstChild,s=f&&!f.nextSibling&&f.nodeType===3?f.data:text(c);if(numeric){const x=v!==null?Number(v):/^-?\d+(\.\d+)?$/.test(s)?+s:NaN;if(x===x)return x}return s.normalize("NFC")};
        const cmp=(a,b)=>{const x=typeof a==="number";if(x!==(typeof b==="number"))return x?-1:1;return x?(a<b?-1:a>b?1:0):cmpText(a,b)};
        const sheet=el("dialog",{className:"sheet"});sheet.setAttribute("aria-labelledby","sheet-title");D.body.append(sheet);
        let opener=null;sheet.addEventListener("close",()=>{if(opener)opener.focus()});
        const bar=el("div",{className:"bar"}),copy=el("button",{type:"button",disabled:true}),status=el("span");
        status.setAttribute("role","status");bar.append(copy,status);
        const first=D.querySelector(".scroll");if(first)first.before(bar);
        const picked=()=>[...D.querySelectorAll("tbody .k input:checked")];
        const count=()=>{const n=picked().length;copy.disabled=!n;copy.hidden=!D.documentElement.classList.contains("sel");copy.textContent=n?"Copy "+n+" selected row"+(n>1?"s":"")+" as CSV":"Copy selected rows as CSV"};
        count();
        const field=s=>/[",\r\n]|^\s|\s$/.test(s)?'"'+s.replace(/"/g,'""')+'"':s;
        copy.addEventListener("click",()=>{const lines=[];
          for(const t of tables){const rows=[...t.querySelectorAll("tbody .k input:checked")].map(b=>b.closest("tr"));if(!rows.length)continue;
            lines.push(cells(t.tHead.rows[0]).map(th=>field(raw(th.firstChild))).join(","));
            for(const tr of rows)lines.push(cells(tr).map(c=>field(c.classList.contains("n")?"":raw(c))).join(","))}
          const csv=lines.join("\r\n")+"\r\n",n=lines.length-tables.filter(t=>t.querySelector("tbody .k input:checked")).length;
          const done=()=>{status.textContent="Copied "+n+" row"+(n>1?"s":"")+" as CSV"};
          const fallback=()=>{const a=el("textarea",{value:csv});D.body.append(a);a.select();D.execCommand("copy");a.remove();done()};
          copy.dataset.csv=csv;
          if(navigator.clipboard)navigator.clipboard.writeText(csv).then(done,fallback);else fallback()});
        const outline=(v,label)=>{const name=label===undefined?"":vis(String(label))+": ";
          if(v!==null&&typeof v==="object"){const keys=Object.keys(v),d=el("details",{open:true}),ul=el("ul");
            d.append(el("summary",{textContent:name+(Array.isArray(v)?"["+keys.length+"]":"{"+keys.length+"}")}),ul);
            for(const k of keys){const li=el("li");li.append(outline(v[k],k));ul.append(li)}return d}
          return el("span",{textContent:name+vis(typeof v==="string"?v:JSON.stringify(v))})};
        const json=s=>{if(!/^\s*[\[{]/.test(s))return undefined;try{return JSON.parse(s)}catch(e){return undefined}};
        const open=(heads,tr)=>{const cs=cells(tr),dl=el("dl");sheet.textContent="";
          heads.forEach((th,i)=>{const dd=el("dd"),c=cs[i],div=el("div");
            if(c){const v=json(text(c));if(v!==undefined&&v!==null&&typeof v==="object")dd.append(outline(v));else for(const n of c.childNodes)dd.append(n.cloneNode(true))}
            div.append(el("dt",{textContent:th.title}),dd);dl.append(div)});
          const close=el("button",{type:"button",textContent:"Close"});close.addEventListener("click",()=>sheet.close());
          sheet.append(el("h2",{id:"sheet-title",textContent:cs.length?text(cs[0]):"Row"}),dl,close);
          rove(tr);opener=tr;sheet.showModal();close.focus()};
        const groups=new Map();
        const groupsOf=t=>{let gs=groups.get(t);if(gs)return gs;gs=[];
          for(const body of t.tBodies){if(!gs.length||!body.classList.contains("c"))gs.push({bodies:[],sizes:[],rows:[],keys:[]});
            const g=gs[gs.length-1],rows=[...body.rows].filter(isData);g.bodies.push(body);g.sizes.push(rows.length);g.rows.push(...rows)}
          groups.set(t,gs);return gs};
        const place=(g,order)=>{let at=0;g.bodies.forEach((body,j)=>{const f=D.createDocumentFragment();
          for(const end=at+g.sizes[j];at<end;at++)f.append(g.rows[order[at]]);
          const last=body.lastElementChild;body.insertBefore(f,last&&last.classList.contains("t")?last:null)})};
        const sort=(t,heads,i)=>{const th=heads[i],dir=th.getAttribute("aria-sort")==="ascending"?-1:1,numeric=th.classList.contains("r");
          const bands=t.classList.contains("pg")?tables.filter(o=>o.classList.contains("pg")):[t];
          for(const o of bands)for(const h of o.tHead.rows[0].cells)if(h.hasAttribute("aria-sort"))h.setAttribute("aria-sort","none");
          th.setAttribute("aria-sort",dir>0?"ascending":"descending");
          const all=bands.map(groupsOf),at=i+(D.documentElement.classList.contains("sel")?1:0);
          groupsOf(t).forEach((g,b)=>{const ks=g.keys[i]||(g.keys[i]=g.rows.map(tr=>key(tr.cells[at],numeric)));
            const order=ks.map((_,n)=>n).sort((x,y)=>{const a=ks[x],c=ks[y];if(a===null||c===null)return a===null&&c===null?x-y:a===null?1:-1;
              const r=cmp(a,c);return r?r*dir:x-y});
            for(const gs of all)if(gs[b])place(gs[b],order)})};
        const rove=tr=>{const t=tr.closest("table");if(t.rov&&t.rov!==tr)t.rov.tabIndex=-1;tr.tabIndex=0;t.rov=tr};
        const step=(tr,down)=>{for(let r=tr;;){let n=down?r.nextElementSibling:r.previousElementSibling;
          if(!n){const b=down?r.parentNode.nextElementSibling:r.parentNode.previousElementSibling;if(!b||b.nodeName!=="TBODY")return null;
            n=down?b.firstElementChild:b.lastElementChild;if(!n)return null}
          if(isData(n))return n;r=n}};
        const boxes=on=>{D.documentElement.classList.toggle("sel",on);
          for(const t of tables){const head=t.tHead.rows[0];
            if(!on){for(const k of t.querySelectorAll(".k"))k.remove();for(const g of t.querySelectorAll("tr.g>th"))g.colSpan-=1;continue}
            const all=el("input",{type:"checkbox"}),box=el("input",{type:"checkbox"});
            all.setAttribute("aria-label","Select every row");box.setAttribute("aria-label","Select the row");
            t.querySelector("colgroup").prepend(el("col",{className:"k"}));
            const kh=el("th",{className:"k",scope:"col"});kh.append(all);head.prepend(kh);
            all.addEventListener("change",()=>{for(const b of t.querySelectorAll("tbody .k input"))b.checked=all.checked;count()});
            for(const body of t.tBodies)for(const tr of body.rows){
              if(tr.classList.contains("g")){tr.cells[0].colSpan+=1;continue}
              const k=el("td",{className:"k"});if(isData(tr))k.append(box.cloneNode());tr.prepend(k)}}
          count()};
        const select=el("button",{type:"button",textContent:"Select rows"});select.setAttribute("aria-pressed","false");
        select.addEventListener("click",()=>{const on=select.getAttribute("aria-pressed")!=="true";select.setAttribute("aria-pressed",String(on));boxes(on)});
        bar.prepend(select);
        for(const t of tables){
          const heads=cells(t.tHead.rows[0]);
          t.addEventListener("change",e=>{if(e.target.closest("tbody"))count()});
          const top=t.querySelector("tbody tr:not(.g,.t)");if(top)rove(top);
          heads.forEach((th,i)=>{th.tabIndex=0;th.setAttribute("aria-sort","none");const go=()=>sort(t,heads,i);
            th.addEventListener("click",go);th.addEventListener("keydown",e=>{if(e.key==="Enter"||e.key===" "){e.preventDefault();go()}})});
          t.addEventListener("click",e=>{const tr=e.target.closest("tbody tr");if(tr&&isData(tr)&&!e.target.closest(".k"))open(heads,tr)});
          t.addEventListener("keydown",e=>{const tr=e.target;if(tr.nodeName!=="TR"||!isData(tr))return;
            if(e.key==="Enter"){e.preventDefault();open(heads,tr)}
            else if(e.key==="ArrowDown"||e.key==="ArrowUp"){e.preventDefault();const n=step(tr,e.key==="ArrowDown");if(n){rove(n);n.focus()}}});
          t.addEventListener("mouseover",e=>{const c=e.target.closest("td");if(c&&!c.title&&(c.querySelector("span")||c.scrollWidth>c.clientWidth))c.title=text(c)})}
        for(const s of D.querySelectorAll(".scroll"))s.addEventListener("scroll",()=>{s.classList.toggle("down",s.scrollTop>0);s.classList.toggle("right",s.scrollLeft>0)},{passive:true});
        })();
        """#
}
