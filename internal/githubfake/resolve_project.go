package githubfake

import (
	"cmp"
	"slices"
)

func (r *release) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return r.id, nil
	case "databaseId":
		return r.dbID, nil
	case "tagName":
		return r.tagName, nil
	case "name":
		return nullable(r.name), nil
	case "description":
		return nullable(r.description), nil
	case "isDraft":
		return r.draft, nil
	case "isPrerelease":
		return r.prerelease, nil
	case "isLatest":
		return r.latest, nil
	case "url":
		return r.url(), nil
	case "tagCommit":
		return r.tagCommit, nil
	case "createdAt":
		return r.createdAt, nil
	case "publishedAt":
		return r.publishedAt, nil
	}
	return nil, unserved("Release", field)
}

func (p *project) resolve(_ *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return p.id, nil
	case "number":
		return p.number, nil
	case "title":
		return p.title, nil
	case "shortDescription":
		return nullable(p.shortDescription), nil
	case "public":
		return p.public, nil
	case "closed":
		return p.closed, nil
	case "url":
		return p.url(), nil
	case "fields":
		fields := p.fields
		if order, ok := args["orderBy"].(map[string]any); ok {
			fields = slices.Clone(fields)
			if order["field"] == "NAME" {
				slices.SortStableFunc(fields, func(a, b *projectField) int { return cmp.Compare(a.name, b.name) })
			}
			if order["direction"] == "DESC" {
				slices.Reverse(fields)
			}
		}
		return paginate("fields", listOf(fields), args)
	case "items":
		items := p.items
		if order, ok := args["orderBy"].(map[string]any); ok && order["direction"] == "DESC" {
			items = slices.Clone(items)
			slices.Reverse(items)
		}
		return paginate("items", listOf(items), args)
	}
	return nil, unserved("ProjectV2", field)
}

func (f *projectField) resolve(_ *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return f.id, nil
	case "name":
		return f.name, nil
	case "dataType":
		return f.dataType, nil
	case "options":
		names, filtered := args["names"].([]any)
		var out []any
		for _, o := range f.options {
			if !filtered || contains(names, o.name) {
				out = append(out, o)
			}
		}
		return out, nil
	}
	return nil, unserved(f.gqlType(), field)
}

func (o *projectOption) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return o.id, nil
	case "name":
		return o.name, nil
	case "color":
		if o.color == "" {
			return "GRAY", nil
		}
		return o.color, nil
	}
	return nil, unserved("ProjectV2SingleSelectFieldOption", field)
}

func (i *projectItem) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return i.id, nil
	case "type":
		return i.typ, nil
	case "content":
		return i.content, nil
	case "isArchived":
		return i.archived, nil
	}
	return nil, unserved("ProjectV2Item", field)
}

func (d *draftIssue) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return d.id, nil
	case "title":
		return d.title, nil
	case "body":
		return d.body, nil
	}
	return nil, unserved("DraftIssue", field)
}
